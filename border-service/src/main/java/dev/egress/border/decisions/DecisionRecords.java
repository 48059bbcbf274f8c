package dev.egress.border.decisions;

import dev.egress.discovery.registry.BorderId;
import dev.egress.discovery.trust.Identity;
import dev.egress.discovery.trust.SignedRecords;
import dev.egress.discovery.trust.SpiffeId;
import dev.egress.discovery.trust.TrustBundle;
import dev.egress.discovery.trust.TrustMaterialException;
import dev.egress.discovery.trust.UntrustedRecordException;
import java.util.Objects;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The stored form of a Border's decisions: the {@link OperatorDecisionsCodec} JSON, signed with the Border's key
 * on the trust chain ({@link SignedRecords}) and verified on every read, so a registry writer can neither forge
 * a record nor edit one (turn an operator's {@code DISABLED} back into {@code ACTIVE}). A record that is unsigned,
 * signed by another Border or by a key no trusted CA issued reads as unreadable, and an unreadable record starts
 * every IP {@code DISABLED}. The Border holds only its own chain and the App CA: a record signed by its current
 * key needs nothing more, one signed by an earlier key (before a certificate rotation) must chain to the App CA,
 * which in the chart and locally is the one CA of the platform. In {@code insecure-local} nothing is signed
 * or verified (a signed record's payload is read as it is). Thread-safe.
 */
public final class DecisionRecords {

    private final OperatorDecisionsCodec codec = new OperatorDecisionsCodec();
    private final @Nullable Supplier<Identity> identity;
    private final @Nullable Supplier<TrustBundle> issuers;
    private final @Nullable String trustDomain;
    private final boolean acceptUnsigned;

    private DecisionRecords(
            @Nullable Supplier<Identity> identity,
            @Nullable Supplier<TrustBundle> issuers,
            @Nullable String domain,
            boolean acceptUnsigned) {
        this.identity = identity;
        this.issuers = issuers;
        this.trustDomain = domain;
        this.acceptUnsigned = acceptUnsigned;
    }

    /**
     * Records signed and verified with the Border's identity.
     *
     * @param identity    the Border's current identity (re-read on every use: a rotation signs the next write)
     * @param issuers     the CA that may have issued an earlier key of this Border
     * @param trustDomain the SPIFFE trust domain
     * @return the records
     */
    public static DecisionRecords signed(
            Supplier<Identity> identity, Supplier<TrustBundle> issuers, String trustDomain) {
        return signed(identity, issuers, trustDomain, false);
    }

    /**
     * Records signed and verified with the Border's identity, optionally taking an unsigned record as it is: for
     * the one roll that upgrades Borders whose records were written before records were signed
     * ({@code egress.decisions.accept-unsigned-record}); the keeper stores such a record again, signed, at once.
     *
     * @param identity       the Border's current identity
     * @param issuers        the CA that may have issued an earlier key of this Border
     * @param trustDomain    the SPIFFE trust domain
     * @param acceptUnsigned whether an unsigned record is read rather than refused
     * @return the records
     */
    public static DecisionRecords signed(
            Supplier<Identity> identity, Supplier<TrustBundle> issuers, String trustDomain, boolean acceptUnsigned) {
        return new DecisionRecords(
                Objects.requireNonNull(identity, "identity"),
                Objects.requireNonNull(issuers, "issuers"),
                Objects.requireNonNull(trustDomain, "trustDomain"),
                acceptUnsigned);
    }

    /**
     * Records neither signed nor verified ({@code egress.security.insecure-local}).
     *
     * @return the records
     */
    public static DecisionRecords unsigned() {
        return new DecisionRecords(null, null, null, false);
    }

    /**
     * Whether a record read successfully should be stored again: an unsigned one taken on the trust chain.
     *
     * @param record the stored bytes
     * @return true if it is not signed though records here are
     */
    public boolean needsSigning(byte[] record) {
        return identity != null && !SignedRecords.looksSigned(record);
    }

    /**
     * Encodes (and, on the trust chain, signs) decisions.
     *
     * @param decisions the decisions
     * @return the record to store
     * @throws InvalidDecisionsException if it would be too large or cannot be signed
     */
    public byte[] encode(OperatorDecisions decisions) {
        byte[] payload = codec.encode(decisions);
        if (identity == null) {
            return payload;
        }
        try {
            return SignedRecords.sign(payload, identity.get());
        } catch (TrustMaterialException | IllegalArgumentException e) {
            throw new InvalidDecisionsException("signature", "cannot sign the record: " + e.getMessage());
        }
    }

    /**
     * Verifies (on the trust chain) and decodes a stored record.
     *
     * @param record   the stored bytes
     * @param expected the Border reading it
     * @return the decisions
     * @throws InvalidDecisionsException naming the broken rule, signature included
     */
    public OperatorDecisions decode(byte[] record, BorderId expected) {
        if (identity == null) {
            byte[] payload = SignedRecords.looksSigned(record) ? SignedRecords.payloadUnverified(record) : record;
            return codec.decode(payload, expected);
        }
        if (acceptUnsigned && !SignedRecords.looksSigned(record)) {
            return codec.decode(record, expected);
        }
        byte[] payload;
        try {
            payload =
                    SignedRecords.verify(record, SpiffeId.border(trustDomain, expected), identity.get(), issuers.get());
        } catch (UntrustedRecordException e) {
            throw new InvalidDecisionsException("signature", e.getMessage());
        }
        return codec.decode(payload, expected);
    }
}
