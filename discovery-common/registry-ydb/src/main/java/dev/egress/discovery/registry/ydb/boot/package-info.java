/**
 * Spring Boot support for the registry clients: {@link dev.egress.discovery.registry.ydb.boot.RegistryAutoConfiguration}
 * wires the YDB adapter behind the ports from the validated {@link dev.egress.discovery.registry.ydb.boot.RegistryProperties}.
 * The package's other half, the start-up failure report, lives in the web kit (module {@code web-kit}) until the
 * packages are renamed after their modules.
 */
@NullMarked
package dev.egress.discovery.registry.ydb.boot;

import org.jspecify.annotations.NullMarked;
