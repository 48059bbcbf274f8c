package dev.egress.border.ssrf;

import inet.ipaddr.AddressStringException;
import inet.ipaddr.AddressStringParameters.RangeParameters;
import inet.ipaddr.IPAddress;
import inet.ipaddr.IPAddressString;
import inet.ipaddr.IPAddressStringParameters;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * IPv4 host parsing as browsers and curl do it (WHATWG URL "IPv4 parser"): {@code 2130706433},
 * {@code 0x7f000001}, {@code 0177.0.0.1} and {@code 127.1} all mean 127.0.0.1. The JDK reads some of
 * these differently (as decimal, or as a DNS name), so the guard decides itself, before any lookup.
 * The number parsing is {@code inet.ipaddr}'s {@code inet_aton} mode; deciding that a host is numeric
 * at all ({@link #looksNumeric}) stays here because it is the URL standard's rule ("ends in a number"),
 * which no address library implements.
 */
enum Ipv4Literals {
    ; // no instances: static parsing only

    private static final IPAddressStringParameters INET_ATON = inetAton();

    /**
     * Whether a host must be treated as an IPv4 address: its last label is numeric (decimal, octal
     * or {@code 0x} hex). Such a host never goes to DNS.
     *
     * @param host the URL host, lower case
     * @return true if the host is an IPv4 form (valid or not)
     */
    static boolean looksNumeric(String host) {
        String[] parts = host.split("\\.", -1);
        String last = parts[parts.length - 1];
        if (last.isEmpty() && parts.length > 1) {
            last = parts[parts.length - 2];
        }
        if (last.isEmpty()) {
            return false;
        }
        if (last.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return true;
        }
        return last.startsWith("0x") && last.substring(2).chars().allMatch(c -> Character.digit(c, 16) >= 0);
    }

    /**
     * Parses a numeric host in any of the 1..4-part forms with decimal, octal or hex parts.
     *
     * @param host the host (see {@link #looksNumeric})
     * @return the address, or null if the form is invalid (e.g. a part out of range)
     */
    static @Nullable IPAddress parseLenient(String host) {
        String h = host.toLowerCase(Locale.ROOT);
        if (h.endsWith(".")) {
            // One trailing dot is the root label; the URL standard drops it.
            h = h.substring(0, h.length() - 1);
        }
        if (h.isEmpty() || h.length() > 64) {
            return null;
        }
        try {
            IPAddress address = new IPAddressString(h, INET_ATON).toAddress();
            return address != null && address.isIPv4() ? address : null;
        } catch (AddressStringException | RuntimeException e) {
            return null;
        }
    }

    private static IPAddressStringParameters inetAton() {
        IPAddressStringParameters.Builder builder = new IPAddressStringParameters.Builder()
                .allowEmpty(false)
                .allowAll(false)
                .allowSingleSegment(true)
                .allowPrefix(false)
                .allowMask(false)
                .allowPrefixOnly(false)
                .allowIPv6(false)
                .allowWildcardedSeparator(false)
                .setRangeOptions(RangeParameters.NO_RANGE);
        builder.getIPv4AddressParametersBuilder()
                .allow_inet_aton(true)
                .allow_inet_aton_hex(true)
                .allow_inet_aton_octal(true)
                .allow_inet_aton_joined_segments(true)
                .allow_inet_aton_leading_zeros(true)
                .allow_inet_aton_extraneous_digits(false)
                .allow_inet_aton_single_segment_mask(false)
                .allowBinary(false)
                .allowLeadingZeros(true)
                .allowUnlimitedLeadingZeros(true);
        return builder.toParams();
    }
}
