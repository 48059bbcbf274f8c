/**
 * JMH benchmark of the App → Border TLS handshake: CPU per handshake (both ends) by provider, full and resumed.
 */
@NullMarked
package dev.egress.bench.tls;

import org.jspecify.annotations.NullMarked;
