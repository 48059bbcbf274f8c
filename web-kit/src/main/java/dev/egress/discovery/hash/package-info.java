/** {@link dev.egress.discovery.hash.Sha256}: the one digest, written once. */
@NullMarked
package dev.egress.discovery.hash;

import org.jspecify.annotations.NullMarked;
