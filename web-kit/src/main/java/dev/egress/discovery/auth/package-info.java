/**
 * Bearer-token doors shared by App and Border: constant-time matching of a token hashed once
 * ({@link dev.egress.discovery.auth.BearerTokens}, {@link dev.egress.discovery.auth.TokenDigest}), the
 * accepted tokens from configuration or a re-read token file ({@link dev.egress.discovery.auth.TokenSource}),
 * the one token a service presents ({@link dev.egress.discovery.auth.PresentedToken}), the one token file
 * format both read ({@link dev.egress.discovery.auth.TokenFile}), and refusal of paths with more than one
 * spelling ({@link dev.egress.discovery.auth.CanonicalPath}).
 */
@NullMarked
package dev.egress.discovery.auth;

import org.jspecify.annotations.NullMarked;
