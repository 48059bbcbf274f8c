/**
 * Bucket ownership: which buckets of the delivery table each App's workers poll. {@link
 * dev.egress.app.delivery.buckets.BucketOwnership} holds this App's share as semaphores on a coordination node of the
 * delivery store's database and publishes it as {@link dev.egress.app.delivery.OwnedBuckets}; wired by {@link
 * dev.egress.app.delivery.buckets.BucketsConfiguration} when durable delivery is on.
 */
@NullMarked
package dev.egress.app.delivery.buckets;

import org.jspecify.annotations.NullMarked;
