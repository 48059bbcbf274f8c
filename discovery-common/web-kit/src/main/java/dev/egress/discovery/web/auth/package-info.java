/**
 * Bearer-token doors shared by App and Border: constant-time matching of a token hashed once
 * ({@link dev.egress.discovery.web.auth.BearerTokens}, {@link dev.egress.discovery.web.auth.TokenDigest}), the
 * accepted tokens from configuration or a re-read token file ({@link dev.egress.discovery.web.auth.TokenSource}),
 * the one token a service presents ({@link dev.egress.discovery.web.auth.PresentedToken}), the one token file
 * format both read ({@link dev.egress.discovery.web.auth.TokenFile}), and refusal of paths with more than one
 * spelling ({@link dev.egress.discovery.web.auth.CanonicalPath}).
 */
@NullMarked
package dev.egress.discovery.web.auth;

import org.jspecify.annotations.NullMarked;
