package dev.egress.border.ssrf;

import inet.ipaddr.AddressStringParameters.RangeParameters;
import inet.ipaddr.IPAddress;
import inet.ipaddr.IPAddressString;
import inet.ipaddr.IPAddressStringParameters;
import java.net.InetAddress;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * An address range such as {@code 10.0.0.0/8} or {@code fc00::/7}, held as an {@code inet.ipaddr}
 * prefix block so that containment is the library's maths, not ours. IPv4 ranges match only IPv4
 * addresses; embedded IPv4 forms are unwrapped by {@link DenyList} before matching.
 *
 * <p>Configuration text is parsed strictly: four decimal parts without leading zeros for IPv4, no
 * {@code inet_aton} shorthands ({@code 127.1}, {@code 0x7f.0.0.1}, {@code 0177.0.0.1}), no wildcards,
 * masks or zones. An operator's range must mean exactly what it looks like.
 *
 * @param block the prefix block (a single address is a /32 or /128 block)
 */
record Cidr(IPAddress block) {

    private static final IPAddressStringParameters STRICT = strict();
    private static final Pattern PREFIX = Pattern.compile("0|[1-9][0-9]{0,2}");

    /** Normalises to the prefix block (host bits cleared). */
    public Cidr {
        Objects.requireNonNull(block, "block");
        if (block.getNetworkPrefixLength() == null) {
            block = block.setPrefixLength(block.getBitCount(), false);
        }
        block = block.toPrefixBlock();
    }

    /**
     * Parses {@code a.b.c.d/n}, {@code x::y/n}, or a single address (a /32 or /128).
     *
     * @param text the CIDR
     * @return the range
     * @throws IllegalArgumentException if the text is not a strict IP literal with an optional /prefix,
     *                                  or has bits set beyond the prefix (a typo more often than intent)
     */
    public static Cidr parse(String text) {
        String trimmed = text == null ? "" : text.strip();
        int slash = trimmed.indexOf('/');
        if (slash >= 0 && !PREFIX.matcher(trimmed.substring(slash + 1)).matches()) {
            throw new IllegalArgumentException(
                    "'%s' (expected: a decimal prefix length without leading zeros)".formatted(text));
        }
        // null for anything that is not a strict literal (getAddress never throws for a bad string)
        IPAddress address = new IPAddressString(trimmed, STRICT).getAddress();
        if (address == null) {
            throw new IllegalArgumentException(
                    "'%s' (expected: an IP literal such as 10.0.0.0/8 or fd00::/8)".formatted(text));
        }
        Cidr cidr = new Cidr(address);
        if (!address.getLower()
                .withoutPrefixLength()
                .equals(cidr.block.getLower().withoutPrefixLength())) {
            throw new IllegalArgumentException(
                    "'%s' has bits set past the prefix (expected: %s)".formatted(text, cidr));
        }
        return cidr;
    }

    /**
     * Whether the address is in the range.
     *
     * @param address an address of either family
     * @return true if the families match and the address is inside the block
     */
    public boolean contains(IPAddress address) {
        return address.getIPVersion() == block.getIPVersion() && block.contains(address.withoutPrefixLength());
    }

    /**
     * Whether the address is in the range.
     *
     * @param address an address of either family
     * @return true if the families match and the address is inside the block
     */
    public boolean contains(InetAddress address) {
        return contains(Addresses.of(address));
    }

    @Override
    public String toString() {
        return block.toCanonicalString();
    }

    private static IPAddressStringParameters strict() {
        IPAddressStringParameters.Builder builder = new IPAddressStringParameters.Builder()
                .allowEmpty(false)
                .allowAll(false)
                .allowSingleSegment(false)
                .allowPrefixOnly(false)
                .allowPrefix(true)
                .allowMask(false)
                .allowWildcardedSeparator(false)
                .setRangeOptions(RangeParameters.NO_RANGE)
                .allow_inet_aton(false);
        builder.getIPv4AddressParametersBuilder()
                .allowLeadingZeros(false)
                .allowUnlimitedLeadingZeros(false)
                // The library counts "/0" as a leading zero; PREFIX below refuses "/08" instead.
                .allowPrefixLengthLeadingZeros(true)
                .allowBinary(false)
                .allowPrefixesBeyondAddressSize(false);
        builder.getIPv6AddressParametersBuilder()
                .allowMixed(true)
                .allowZone(false)
                .allowBase85(false)
                .allowBinary(false)
                .allowPrefixesBeyondAddressSize(false)
                .allowPrefixLengthLeadingZeros(true);
        return builder.toParams();
    }
}
