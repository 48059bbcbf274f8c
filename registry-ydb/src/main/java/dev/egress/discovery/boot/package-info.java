/**
 * Spring Boot support for the registry clients: {@link dev.egress.discovery.boot.RegistryAutoConfiguration}
 * wires the YDB adapter behind the ports from the validated {@link dev.egress.discovery.boot.RegistryProperties}.
 * The package's other half, the start-up failure report, lives in the web kit (module {@code web-kit}) until the
 * packages are renamed after their modules.
 */
@NullMarked
package dev.egress.discovery.boot;

import org.jspecify.annotations.NullMarked;
