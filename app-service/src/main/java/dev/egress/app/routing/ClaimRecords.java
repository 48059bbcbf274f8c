package dev.egress.app.routing;

import java.time.Instant;
import java.util.Collection;
import java.util.Set;

/**
 * The standing claims stored where every App reads and writes them (the claims table beside the delivery store), so
 * that an App that starts while an owner is absent learns that owner's claim, and an operator's move through one App
 * ends an absent owner's claim on all of them. {@link ClaimsSync} is its one user. Every method may throw {@link
 * ClaimStoreException}; a failed call changed nothing or something it is safe to repeat.
 */
public interface ClaimRecords {

    /**
     * Every stored claim.
     *
     * @return the claims
     */
    Set<Claim> readAll();

    /**
     * Stores claims; one already stored stays (its {@code seenAt} is updated).
     *
     * @param claims the claims
     * @param seenAt when this App saw them
     */
    void upsert(Collection<Claim> claims, Instant seenAt);

    /**
     * Removes claims; one not stored is no error.
     *
     * @param claims the claims
     */
    void delete(Collection<Claim> claims);

    /**
     * Records an operator's move in one transaction: the claim is stored and every other claim of its IP removed.
     *
     * @param owner  the IP and the Border it was moved to
     * @param seenAt when the move was confirmed
     */
    void keepOnly(Claim owner, Instant seenAt);
}
