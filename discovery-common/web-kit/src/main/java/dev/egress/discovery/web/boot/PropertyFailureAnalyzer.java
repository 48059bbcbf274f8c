package dev.egress.discovery.web.boot;

import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.BeanCreationException;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;

/**
 * Turns a start-up failure caused by one of our properties into Spring Boot's short report: one line
 * naming the property and the rule it broke, instead of a chain of {@code UnsatisfiedDependencyException}s
 * that hides the cause at the end. Our validation messages start with the property's name
 * ({@code "egress.routing.strategy (or ...): strategy: 'random' (expected: one of ...)"}), which is how
 * this analyzer recognises them; anything else is left to Boot's own analyzers.
 */
public final class PropertyFailureAnalyzer implements FailureAnalyzer {

    private static final String PREFIX = "egress.";

    /** Creates the analyzer; Boot instantiates it from {@code META-INF/spring.factories}. */
    public PropertyFailureAnalyzer() {}

    @Override
    public @Nullable FailureAnalysis analyze(Throwable failure) {
        Throwable property = propertyCause(failure);
        if (property == null) {
            return null;
        }
        return new FailureAnalysis(
                "Invalid configuration: " + property.getMessage(),
                "Correct the property named above (as --name=value, an EGRESS_... environment variable or "
                        + "application.yml; see docs/configuration/) and start again.",
                property);
    }

    /** The innermost-but-our-own cause: the first exception in the chain whose message names a property. */
    private static @Nullable Throwable propertyCause(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (!(t instanceof BeanCreationException)
                    && t.getMessage() != null
                    && t.getMessage().startsWith(PREFIX)
                    && (t instanceof IllegalArgumentException || t instanceof IllegalStateException)) {
                return t;
            }
        }
        return null;
    }
}
