package dev.egress.system;

import dev.egress.system.HostCommand.Result;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The network of {@link PublicAddressNatIT}: three Linux network namespaces in a row, as on a cloud
 * where a host's private address is translated to a public one on the way out.
 *
 * <pre>
 *   border ns                   router ns                               customer ns
 *   eth0 10.77.1.5/24  ───  to-border 10.77.1.1/24
 *   (coordination, Border,      to-cust 203.0.113.1/24, 203.0.113.10  ───  eth0 203.0.113.100/24
 *    App on the ns's loopback)  nftables snat 10.77.1.5 → 203.0.113.10     nftables: accept only 203.0.113.10
 * </pre>
 *
 * <p>Nothing is created in the test JVM's own namespace: every link lives between two of these
 * namespaces, there is no default route anywhere, and the only addresses are a private range and the
 * documentation range {@code 203.0.113.0/24}, so nothing sent inside can leave. The test reaches App
 * with {@code curl} run inside the border namespace.
 *
 * <p>Every namespace carries the prefix {@value #PREFIX}. A run holds a machine-wide file lock, deletes
 * leftovers with the prefix first (a killed run), and deletes what it made (killing the processes in
 * it) in {@link #close()} and in a JVM shutdown hook.
 */
final class NatNetwork implements AutoCloseable {

    static final String PREFIX = "egress-nat-";
    static final String BORDER = PREFIX + "border";
    static final String ROUTER = PREFIX + "router";
    static final String CUSTOMER = PREFIX + "customer";
    /** The address the Border binds: private, known only inside the border namespace and the router. */
    static final String BIND = "10.77.1.5";
    /** The address the NAT translates {@link #BIND} to: what customers see and allowlist. */
    static final String PUBLIC = "203.0.113.10";

    /** Another address of the router, for a translation to the wrong public address. */
    static final String WRONG_PUBLIC = "203.0.113.11";

    static final String CUSTOMER_IP = "203.0.113.100";

    private static final Path LOCK = Path.of("/tmp/egress-nat-it.lock");
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(90);

    private final NamespaceLease lease;

    private NatNetwork(NamespaceLease lease) {
        this.lease = lease;
    }

    /**
     * Why this machine cannot build the network, or null if it can.
     *
     * @return a reason for a skipped test, or null
     */
    static String unavailableReason() {
        String uid = exec(List.of("id", "-u"), null).output().strip();
        if (!"0".equals(uid)) {
            return "network namespaces and nftables need root (uid " + uid + ", user " + System.getProperty("user.name")
                    + ")";
        }
        for (String tool : List.of("ip", "nft", "curl")) {
            if (!HostCommand.onPath(tool)) {
                return "'" + tool + "' not found: install iproute2, nftables and curl";
            }
        }
        String probe = PREFIX + "probe";
        Result added = exec(List.of("ip", "netns", "add", probe), null);
        exec(List.of("ip", "netns", "del", probe), null);
        return added.ok() ? null : "cannot create a network namespace: " + added.output();
    }

    /**
     * Builds the three namespaces, their links and addresses, the router's (still empty) NAT table and
     * the customer's allowlist.
     *
     * @param receiverPort the port the customer's receiver listens on
     * @return the network
     * @throws IOException if the machine-wide lock cannot be taken
     */
    static NatNetwork create(int receiverPort) throws IOException {
        NatNetwork network = new NatNetwork(NamespaceLease.take(LOCK, NatNetwork::removeAll, "nat-netns-cleanup"));
        try {
            network.build(receiverPort);
        } catch (RuntimeException e) {
            network.close();
            throw e;
        }
        return network;
    }

    private void build(int receiverPort) {
        for (String ns : List.of(BORDER, ROUTER, CUSTOMER)) {
            run("ip", "netns", "add", ns);
            run("ip", "-n", ns, "link", "set", "lo", "up");
        }
        run("ip", "-n", ROUTER, "link", "add", "to-border", "type", "veth", "peer", "name", "eth0", "netns", BORDER);
        run("ip", "-n", ROUTER, "link", "add", "to-cust", "type", "veth", "peer", "name", "eth0", "netns", CUSTOMER);
        run("ip", "-n", BORDER, "addr", "add", BIND + "/24", "dev", "eth0");
        run("ip", "-n", ROUTER, "addr", "add", "10.77.1.1/24", "dev", "to-border");
        run("ip", "-n", ROUTER, "addr", "add", "203.0.113.1/24", "dev", "to-cust");
        // The router answers ARP for the public address, as a cloud's NAT gateway owns the Elastic IP.
        run("ip", "-n", ROUTER, "addr", "add", PUBLIC + "/32", "dev", "to-cust");
        run("ip", "-n", ROUTER, "addr", "add", WRONG_PUBLIC + "/32", "dev", "to-cust");
        run("ip", "-n", CUSTOMER, "addr", "add", CUSTOMER_IP + "/24", "dev", "eth0");
        run("ip", "-n", BORDER, "link", "set", "eth0", "up");
        run("ip", "-n", ROUTER, "link", "set", "to-border", "up");
        run("ip", "-n", ROUTER, "link", "set", "to-cust", "up");
        run("ip", "-n", CUSTOMER, "link", "set", "eth0", "up");
        // Only the customer's network is routed from the Border's host; the customer has no route back
        // to the private range at all, so an untranslated packet could never be answered.
        run("ip", "-n", BORDER, "route", "add", "203.0.113.0/24", "via", "10.77.1.1");
        run("ip", "netns", "exec", ROUTER, "sysctl", "-q", "-w", "net.ipv4.ip_forward=1");
        nft(ROUTER, """
                table ip nat {
                  chain prerouting {
                    type nat hook prerouting priority -100; policy accept;
                  }
                  chain postrouting {
                    type nat hook postrouting priority 100; policy accept;
                  }
                }
                """);
        nft(CUSTOMER, """
                table inet allowlist {
                  chain input {
                    type filter hook input priority 0; policy drop;
                    iifname "lo" accept
                    ct state established,related accept
                    ip saddr %s tcp dport %d counter accept
                    counter drop
                  }
                }
                """.formatted(PUBLIC, receiverPort));
    }

    /** Adds the router's rule that rewrites the Border's bind address to the public one. */
    void translateBindToPublic() {
        translateBindTo(PUBLIC);
    }

    /**
     * Makes the router rewrite the Border's bind address to {@code address}, replacing any earlier rule: with
     * {@link #WRONG_PUBLIC} the router translates as a misconfigured cloud does, to an address nobody
     * allowlisted.
     *
     * @param address {@link #PUBLIC} or {@link #WRONG_PUBLIC}
     */
    void translateBindTo(String address) {
        nft(ROUTER, "flush chain ip nat postrouting\n");
        nft(
                ROUTER,
                "add rule ip nat postrouting ip saddr %s oifname \"to-cust\" counter snat to %s\n"
                        .formatted(BIND, address));
    }

    /**
     * Opens a port of the customer's namespace to every source (a public service such as an echo of the
     * caller's address; the webhook receiver stays allowlisted).
     *
     * @param port the port
     */
    void openToEverySource(int port) {
        nft(CUSTOMER, "insert rule inet allowlist input tcp dport %d counter accept\n".formatted(port));
    }

    /**
     * Packets the customer's allowlist dropped (sources other than the public address).
     *
     * @return the drop counter
     */
    long droppedByCustomer() {
        return counter(
                exec(List.of("ip", "netns", "exec", CUSTOMER, "nft", "list", "table", "inet", "allowlist"), null)
                        .output(),
                "drop");
    }

    /**
     * Packets the customer's allowlist accepted from the public address.
     *
     * @return the accept counter
     */
    long acceptedByCustomer() {
        return counter(
                exec(List.of("ip", "netns", "exec", CUSTOMER, "nft", "list", "table", "inet", "allowlist"), null)
                        .output(),
                "accept");
    }

    /**
     * Packets the router translated.
     *
     * @return the snat rule's counter
     */
    long translated() {
        return counter(
                exec(List.of("ip", "netns", "exec", ROUTER, "nft", "list", "table", "ip", "nat"), null)
                        .output(),
                "snat to " + PUBLIC);
    }

    private static long counter(String listing, String verdict) {
        long total = 0;
        Matcher m = Pattern.compile("counter packets (\\d+) bytes \\d+ " + Pattern.quote(verdict))
                .matcher(listing);
        while (m.find()) {
            total += Long.parseLong(m.group(1));
        }
        return total;
    }

    /**
     * Starts a process inside a namespace, output appended to a log file.
     *
     * @param ns      the namespace
     * @param command the command
     * @param log     the log file
     * @return the process ({@code ip netns exec} replaces itself with the command, so this is the command)
     */
    static Process start(String ns, List<String> command, Path log) {
        List<String> full = new ArrayList<>(List.of(HostCommand.absolute("ip"), "netns", "exec", ns));
        full.addAll(command);
        try {
            Files.createDirectories(log.getParent());
            ProcessBuilder builder = new ProcessBuilder(full)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
            builder.environment().put("PATH", String.join(":", HostCommand.searchPath()));
            return builder.start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot start " + full, e);
        }
    }

    /**
     * An HTTP call made from inside the border namespace (where App listens on the loopback).
     *
     * @param method      GET or POST
     * @param url         the URL
     * @param bearer      the token
     * @param jsonBody    a JSON body, or null
     * @return the status (0 when nothing answered) and body
     */
    static Result curl(String method, String url, String bearer, String jsonBody) {
        List<String> command = new ArrayList<>(List.of(
                "ip",
                "netns",
                "exec",
                BORDER,
                "curl",
                "-s",
                "-m",
                "60",
                "-X",
                method,
                "-H",
                "Authorization: Bearer " + bearer,
                "-w",
                "\n%{http_code}"));
        if (jsonBody != null) {
            command.addAll(List.of("-H", "Content-Type: application/json", "--data-binary", "@-"));
        }
        command.add(url);
        Result r = exec(command, jsonBody);
        String out = r.output();
        int cut = out.lastIndexOf('\n');
        int status;
        try {
            status = Integer.parseInt(out.substring(cut + 1).strip());
        } catch (NumberFormatException e) {
            status = 0;
        }
        return new Result(status, cut < 0 ? "" : out.substring(0, cut));
    }

    /** Deletes every namespace with the prefix, killing what still runs in it. */
    static void removeAll() {
        Result list = exec(List.of("ip", "netns", "list"), null);
        for (String line : list.output().split("\n")) {
            String ns = line.split(" ")[0].strip();
            if (!ns.startsWith(PREFIX)) {
                continue;
            }
            for (String pid :
                    exec(List.of("ip", "netns", "pids", ns), null).output().split("\\s+")) {
                if (pid.matches("\\d+")) {
                    exec(List.of("kill", "-9", pid), null);
                }
            }
            exec(List.of("ip", "netns", "del", ns), null);
        }
    }

    @Override
    public void close() {
        lease.close();
    }

    private static void nft(String ns, String script) {
        Result r = exec(List.of("ip", "netns", "exec", ns, "nft", "-f", "-"), script);
        if (!r.ok()) {
            throw new IllegalStateException("nft in " + ns + " failed: " + r.output() + "\n" + script);
        }
    }

    private static Result exec(List<String> command, String stdin) {
        return HostCommand.exec(command, stdin, COMMAND_TIMEOUT);
    }

    private static void run(String... command) {
        HostCommand.run(COMMAND_TIMEOUT, command);
    }
}
