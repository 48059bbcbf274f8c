/**
 * App's side of the trust chain: the announcement verification the registry watcher uses, and mutual TLS
 * towards Borders that accepts only the route's Border ({@link dev.egress.app.trust.BorderTls});
 * {@link dev.egress.app.trust.AppTrust} says whether the trust chain or {@code insecure-local} is in use.
 */
@NullMarked
package dev.egress.app.trust;

import org.jspecify.annotations.NullMarked;
