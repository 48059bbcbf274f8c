package dev.egress.app.delivery;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One page of a listing, oldest first.
 *
 * @param records the records
 * @param next    the cursor of the next page, or null on the last one
 */
public record DeliveryPage(
        List<DeliveryRecord> records, @Nullable String next) {

    /** Copies the list. */
    public DeliveryPage {
        records = List.copyOf(records);
    }
}
