package dev.egress.app.proxy;

import dev.egress.discovery.web.forward.TargetAuthority;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;

/**
 * A range of sender addresses in CIDR form ({@code 10.0.0.0/8}, {@code fd00::/8}, a bare address for one), as
 * {@code egress.proxy.unauthenticated-sources} lists them. Only IP literals, in full (a host name here would make
 * the trust depend on DNS; {@code 10.1} is not read as {@code 10.0.0.1}), and never {@code /0} (every address).
 *
 * @param network the network address, its host bits zero
 * @param prefix  the prefix length, 0..32 for IPv4, 0..128 for IPv6
 */
record SourceRange(byte[] network, int prefix) {

    /** Checks the prefix against the address family and clears the host bits. */
    SourceRange {
        if (network.length != 4 && network.length != 16) {
            throw new IllegalArgumentException("network: %d bytes (expected: 4 or 16)".formatted(network.length));
        }
        if (prefix < 0 || prefix > network.length * 8) {
            throw new IllegalArgumentException(
                    "prefix: /%d (expected: 0..%d for this address family)".formatted(prefix, network.length * 8));
        }
        network = masked(network, prefix);
    }

    /**
     * Reads {@code address[/prefix]}.
     *
     * @param text the range
     * @return the range
     * @throws IllegalArgumentException when it is not an IP literal with an optional prefix in range
     */
    static SourceRange parse(String text) {
        String value = text == null ? "" : text.strip();
        int slash = value.indexOf('/');
        String address = slash < 0 ? value : value.substring(0, slash);
        if (address.isEmpty()
                || !(address.indexOf(':') >= 0 || address.chars().allMatch(c -> c == '.' || Character.isDigit(c)))) {
            throw new IllegalArgumentException(
                    "'%s' (expected: an IP literal with an optional /prefix)".formatted(text));
        }
        try {
            // The target's own reading of an IP literal: a full dotted quad (10.1 is not 10.0.0.1) or IPv6.
            TargetAuthority.host(address);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "'%s' (expected: a full IPv4 dotted quad or an IPv6 literal, with an optional /prefix)"
                            .formatted(text),
                    e);
        }
        byte[] bytes;
        try {
            // A literal only (checked above), so this never asks DNS.
            bytes = InetAddress.getByName(address).getAddress();
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(
                    "'%s' (expected: an IP literal with an optional /prefix)".formatted(text), e);
        }
        int prefix;
        if (slash < 0) {
            prefix = bytes.length * 8;
        } else {
            String digits = value.substring(slash + 1);
            if (digits.isEmpty() || digits.length() > 3 || !digits.chars().allMatch(Character::isDigit)) {
                throw new IllegalArgumentException("'%s' (expected: a numeric /prefix)".formatted(text));
            }
            prefix = Integer.parseInt(digits);
            if (prefix == 0) {
                // Every address of the family: the door would be open to anything that reaches the listener.
                throw new IllegalArgumentException("'%s' (expected: a /prefix above 0)".formatted(text));
            }
        }
        return new SourceRange(bytes, prefix);
    }

    /**
     * Whether an address is in the range (an IPv4 address is never in an IPv6 range, nor the other way round).
     *
     * @param address the sender's address
     * @return true when inside
     */
    boolean contains(InetAddress address) {
        byte[] bytes = address.getAddress();
        return bytes.length == network.length && Arrays.equals(masked(bytes, prefix), network);
    }

    private static byte[] masked(byte[] bytes, int prefix) {
        byte[] out = bytes.clone();
        for (int i = 0; i < out.length; i++) {
            int bits = Math.max(0, Math.min(8, prefix - i * 8));
            out[i] = (byte) (out[i] & (0xff00 >> bits));
        }
        return out;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof SourceRange range && prefix == range.prefix && Arrays.equals(network, range.network);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(network) + prefix;
    }

    @Override
    public String toString() {
        try {
            return InetAddress.getByAddress(network).getHostAddress() + "/" + prefix;
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}
