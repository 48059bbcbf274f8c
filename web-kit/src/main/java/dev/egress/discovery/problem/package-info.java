/**
 * Failures as RFC 9457 problems, one model for App and Border: the catalogue of types
 * ({@link dev.egress.discovery.problem.ProblemType}, the stable slugs clients match on), one answer
 * ({@link dev.egress.discovery.problem.Problem}) carried by typed
 * {@link dev.egress.discovery.problem.ProblemException}s, and the one mapping to HTTP
 * ({@link dev.egress.discovery.problem.ProblemAdviceSupport}, with the framework's own errors in
 * {@link dev.egress.discovery.problem.FrameworkProblems}) that each service's {@code ProblemAdvice} extends.
 */
@NullMarked
package dev.egress.discovery.problem;

import org.jspecify.annotations.NullMarked;
