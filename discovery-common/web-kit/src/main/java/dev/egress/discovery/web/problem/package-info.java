/**
 * Failures as RFC 9457 problems, one model for App and Border: the catalogue of types
 * ({@link dev.egress.discovery.web.problem.ProblemType}, the stable slugs clients match on), one answer
 * ({@link dev.egress.discovery.web.problem.Problem}) carried by typed
 * {@link dev.egress.discovery.web.problem.ProblemException}s, and the one mapping to HTTP
 * ({@link dev.egress.discovery.web.problem.ProblemAdviceSupport}, with the framework's own errors in
 * {@link dev.egress.discovery.web.problem.FrameworkProblems}) that each service's {@code ProblemAdvice} extends.
 */
@NullMarked
package dev.egress.discovery.web.problem;

import org.jspecify.annotations.NullMarked;
