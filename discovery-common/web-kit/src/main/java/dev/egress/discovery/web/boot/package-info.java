/**
 * Spring Boot support shared by both services, such as the start-up report that names the property a
 * failure came from ({@link dev.egress.discovery.web.boot.PropertyFailureAnalyzer}).
 */
@NullMarked
package dev.egress.discovery.web.boot;

import org.jspecify.annotations.NullMarked;
