/** The embedded node's tables through the official SDK's Query client: upserts, compare-and-set, index reads. */
package dev.egress.bench.tables;
