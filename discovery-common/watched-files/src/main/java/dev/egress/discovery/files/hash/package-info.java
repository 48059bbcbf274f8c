/** {@link dev.egress.discovery.files.hash.Sha256}: the one digest, written once. */
@NullMarked
package dev.egress.discovery.files.hash;

import org.jspecify.annotations.NullMarked;
