/**
 * Bearer-token doors shared by App and Border: constant-time token matching
 * ({@link dev.egress.discovery.auth.BearerTokens}), tokens from configuration or a re-read file
 * ({@link dev.egress.discovery.auth.TokenSource}), and refusal of paths with more than one spelling
 * ({@link dev.egress.discovery.auth.CanonicalPath}).
 */
@NullMarked
package dev.egress.discovery.auth;

import org.jspecify.annotations.NullMarked;
