/**
 * Spring Boot support shared by both services, such as the start-up report that names the property a
 * failure came from ({@link dev.egress.discovery.boot.PropertyFailureAnalyzer}).
 */
@NullMarked
package dev.egress.discovery.boot;

import org.jspecify.annotations.NullMarked;
