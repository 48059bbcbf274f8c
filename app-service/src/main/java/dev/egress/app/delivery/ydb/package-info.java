/**
 * The delivery store on YDB tables through the Query service ({@link dev.egress.app.delivery.ydb.DeliveryTables},
 * {@link dev.egress.app.delivery.ydb.YdbDeliveryStore}): the only App package that imports the YDB SDK, so every
 * other package sees the {@link dev.egress.app.delivery.DeliveryStore} port and its exceptions. Routing's claims
 * table shares the connection ({@code YdbClaimRecords}, behind routing's {@code ClaimRecords} port). Tables and
 * transactions: docs/delivery-store.md.
 */
@NullMarked
package dev.egress.app.delivery.ydb;

import org.jspecify.annotations.NullMarked;
