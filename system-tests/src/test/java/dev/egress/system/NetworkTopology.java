package dev.egress.system;

import dev.egress.system.HostCommand.Result;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A private network for {@link NetworkPartitionsIT}: one Linux network namespace per host, each with
 * an {@code eth0} veth whose peer sits on a bridge in a {@code lan} namespace, and one more veth from
 * the test JVM's namespace to that bridge so the test can call the APIs. Faults are applied on the
 * bridge (nftables {@code bridge} family: partitions, random loss), on a host's interface (netem) or in
 * its output path (a DNAT diversion, for {@link SlowLink}'s relay). Addresses are documentation
 * and unique-local ranges ({@code 198.51.100.0/24}, {@code fd00:e9e5::/64}) and there is no default
 * route anywhere: nothing sent inside can leave, and the bridge has no real interface.
 *
 * <p>Every object carries the prefix {@value #PREFIX} (namespaces) or {@value #HOST_LINK} (the one
 * link in the test JVM's namespace). A run holds a machine-wide file lock, deletes leftovers with that
 * prefix first (a killed run), and deletes what it made in {@link #close()} and in a JVM shutdown hook.
 */
final class NetworkTopology implements AutoCloseable {

    static final String PREFIX = "egress-it-";
    static final String HOST_LINK = "egress-it-host";
    static final String LAN = PREFIX + "lan";
    static final String V4 = "198.51.100.";
    static final String V6 = "fd00:e9e5::";
    /** The test JVM's address on the bridge. */
    static final String TEST_HOST = V4 + "1";

    static final String TEST_HOST_V6 = V6 + "1";

    private static final Path LOCK = Path.of("/tmp/egress-netns-it.lock");
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(30);
    /** {@code ip netns exec <ns>} bind-mounts the files of {@code /etc/netns/<ns>/} over their {@code /etc} twins. */
    private static final Path NETNS_ETC = Path.of("/etc/netns");

    /** Host name → its addresses; the first one is the host's service address. */
    private final Map<String, List<String>> hosts;

    private final NamespaceLease lease;

    private NetworkTopology(Map<String, List<String>> hosts, NamespaceLease lease) {
        this.hosts = hosts;
        this.lease = lease;
    }

    /**
     * Why this machine cannot build the topology, or null if it can.
     *
     * @return a reason for a skipped test, or null
     */
    static String unavailableReason() {
        String uid = exec(List.of("id", "-u")).output().strip();
        if (!"0".equals(uid)) {
            return "network namespaces need root (uid " + uid + ", user " + System.getProperty("user.name") + ")";
        }
        for (String tool : List.of("ip", "nft")) {
            if (!HostCommand.onPath(tool)) {
                return "'" + tool + "' not found: install iproute2 and nftables (.ci/run does)";
            }
        }
        String probe = PREFIX + "probe";
        Result added = exec(List.of("ip", "netns", "add", probe));
        exec(List.of("ip", "netns", "del", probe));
        return added.ok() ? null : "cannot create a network namespace: " + added.output();
    }

    /**
     * Whether {@code tc qdisc ... netem} works here (the kernel may lack {@code sch_netem}).
     *
     * @return null if it works, else why not
     */
    String netemUnavailableReason() {
        Result r = exec(List.of(
                "ip", "netns", "exec", LAN, "tc", "qdisc", "add", "dev", "lo", "root", "netem", "delay", "1ms"));
        exec(List.of("ip", "netns", "exec", LAN, "tc", "qdisc", "del", "dev", "lo", "root"));
        return r.ok()
                ? null
                : "tc netem unavailable (kernel module sch_netem missing?): "
                        + r.output().strip();
    }

    /**
     * Builds the network: the bridge, one namespace per host with its addresses, the test's link.
     *
     * @param hosts host name → addresses (IPv4 or IPv6 literals); the first is the service address
     * @return the topology
     * @throws IOException if the machine-wide lock cannot be taken
     */
    static NetworkTopology create(Map<String, List<String>> hosts) throws IOException {
        // Two runs on one machine (two worktrees) would fight over the names and the test link: serialise.
        NetworkTopology topology = new NetworkTopology(
                new LinkedHashMap<>(hosts), NamespaceLease.take(LOCK, NetworkTopology::removeAll, "netns-cleanup"));
        try {
            topology.build();
        } catch (RuntimeException e) {
            topology.close();
            throw e;
        }
        return topology;
    }

    private void build() {
        run("ip", "netns", "add", LAN);
        run("ip", "-n", LAN, "link", "add", "br0", "type", "bridge");
        run("ip", "-n", LAN, "link", "set", "br0", "up");
        for (Map.Entry<String, List<String>> host : hosts.entrySet()) {
            String ns = namespace(host.getKey());
            run("ip", "netns", "add", ns);
            run("ip", "-n", ns, "link", "set", "lo", "up");
            run("ip", "-n", LAN, "link", "add", host.getKey(), "type", "veth", "peer", "name", "eth0", "netns", ns);
            run("ip", "-n", LAN, "link", "set", host.getKey(), "master", "br0", "up");
            for (String address : host.getValue()) {
                if (address.contains(":")) {
                    // nodad: an address still in duplicate address detection cannot be bound yet.
                    run("ip", "-n", ns, "addr", "add", address + "/64", "dev", "eth0", "nodad");
                } else {
                    run("ip", "-n", ns, "addr", "add", address + "/24", "dev", "eth0");
                }
            }
            run("ip", "-n", ns, "link", "set", "eth0", "up");
        }
        run("ip", "link", "add", HOST_LINK, "type", "veth", "peer", "name", "test", "netns", LAN);
        run("ip", "-n", LAN, "link", "set", "test", "master", "br0", "up");
        run("ip", "addr", "add", TEST_HOST + "/24", "dev", HOST_LINK);
        run("ip", "addr", "add", TEST_HOST_V6 + "/64", "dev", HOST_LINK, "nodad");
        run("ip", "link", "set", HOST_LINK, "up");
    }

    static String namespace(String host) {
        return PREFIX + host;
    }

    /**
     * The words that run a command inside a host's namespace.
     *
     * @param host host name
     * @return {@code ip netns exec <namespace>}
     */
    List<String> execIn(String host) {
        return List.of(HostCommand.absolute("ip"), "netns", "exec", namespace(host));
    }

    /**
     * Gives a host its own {@code /etc/hosts}, seen by every process started with {@link #execIn}: a name
     * resolver that reads the file itself (Netty's, in the Border) ignores {@code -Djdk.net.hosts.file}.
     *
     * @param host    host name
     * @param content the file's lines
     * @throws IOException if the file cannot be written
     */
    void hostsFile(String host, String content) throws IOException {
        Path dir = NETNS_ETC.resolve(namespace(host));
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("hosts"), content);
    }

    /**
     * Loads an nftables script into a host's namespace.
     *
     * @param host   host name
     * @param script the ruleset (e.g. a {@code table inet ... { ... }})
     */
    void nft(String host, String script) {
        Result r = exec(List.of("ip", "netns", "exec", namespace(host), "nft", "-f", "-"), script);
        if (!r.ok()) {
            throw new IllegalStateException("nft in " + host + " failed: " + r.output() + "\n" + script);
        }
    }

    /**
     * Cuts two hosts apart in both directions, on the wire: the bridge drops every IP packet between
     * their addresses (no reset, no ICMP, as a real partition; ARP still passes). Dropping on the bridge
     * rather than in either host's output chain matters: a local output drop fails {@code connect()}
     * at once with EPERM, which no real network does.
     *
     * @param name  a name for the cut, used by {@link #heal}
     * @param hostA one side
     * @param hostB the other side
     */
    void partition(String name, String hostA, String hostB) {
        StringBuilder rules = new StringBuilder();
        for (String family : List.of("ip", "ip6")) {
            String a = addresses(hostA, family);
            String b = addresses(hostB, family);
            if (a != null && b != null) {
                rules.append("    %1$s saddr %2$s %1$s daddr %3$s counter drop\n".formatted(family, a, b));
                rules.append("    %1$s saddr %3$s %1$s daddr %2$s counter drop\n".formatted(family, a, b));
            }
        }
        wire(name, rules.toString());
    }

    /**
     * Makes a host's link lossy: the bridge drops a share of the IP packets to and from it at random.
     *
     * @param name    a name for the fault, used by {@link #heal}
     * @param host    the host
     * @param percent the share dropped, each way
     */
    void lossy(String name, String host, int percent) {
        StringBuilder rules = new StringBuilder();
        for (String family : List.of("ip", "ip6")) {
            String addresses = addresses(host, family);
            if (addresses != null) {
                for (String direction : List.of("saddr", "daddr")) {
                    rules.append("    %s %s %s numgen random mod 100 < %d counter drop\n"
                            .formatted(family, direction, addresses, percent));
                }
            }
        }
        wire(name, rules.toString());
    }

    private void wire(String name, String rules) {
        String script = """
                table bridge %s {
                  chain wire {
                    type filter hook forward priority -10; policy accept;
                %s  }
                }
                """.formatted(name, rules);
        Result r = exec(List.of("ip", "netns", "exec", LAN, "nft", "-f", "-"), script);
        if (!r.ok()) {
            throw new IllegalStateException("nft on the bridge failed: " + r.output() + "\n" + script);
        }
    }

    /** A host's addresses of one family as an nftables set, or null if it has none. */
    private String addresses(String host, String family) {
        List<String> of = hosts.get(host).stream()
                .filter(a -> a.contains(":") == family.equals("ip6"))
                .toList();
        return of.isEmpty() ? null : "{ " + String.join(", ", of) + " }";
    }

    /**
     * Removes a cut or a lossy link.
     *
     * @param name its name
     */
    void heal(String name) {
        exec(List.of("ip", "netns", "exec", LAN, "nft", "delete", "table", "bridge", name));
    }

    /**
     * Packets the bridge dropped for a fault so far.
     *
     * @param name the fault's name
     * @return the sum of its counters
     */
    long droppedOnTheWire(String name) {
        return countDrops(exec(List.of("ip", "netns", "exec", LAN, "nft", "list", "table", "bridge", name))
                .output());
    }

    /**
     * Packets an nftables rule ending in {@code counter ... drop} has dropped.
     *
     * @param host  host name
     * @param table the table holding the rule
     * @return the sum over the table's dropping counters
     */
    long droppedPackets(String host, String table) {
        return countDrops(exec(List.of("ip", "netns", "exec", namespace(host), "nft", "list", "table", "inet", table))
                .output());
    }

    private static long countDrops(String listing) {
        long total = 0;
        Matcher m = Pattern.compile("counter packets (\\d+) bytes \\d+ drop").matcher(listing);
        while (m.find()) {
            total += Long.parseLong(m.group(1));
        }
        return total;
    }

    /**
     * Applies a netem qdisc on a host's interface (all its traffic, both directions' sends).
     *
     * @param host  host name
     * @param netem e.g. {@code delay 200ms loss 5%}
     */
    void netem(String host, String netem) {
        List<String> command = new ArrayList<>(List.of("tc", "qdisc", "replace", "dev", "eth0", "root", "netem"));
        command.addAll(List.of(netem.split(" ")));
        List<String> full = new ArrayList<>(execIn(host));
        full.addAll(command);
        run(full.toArray(String[]::new));
    }

    /**
     * A host's qdisc counters on its interface (netem's sent and dropped packets), on one line.
     *
     * @param host host name
     * @return {@code tc -s qdisc show dev eth0}, whitespace folded
     */
    String qdiscStatistics(String host) {
        return exec(List.of("ip", "netns", "exec", namespace(host), "tc", "-s", "qdisc", "show", "dev", "eth0"))
                .output()
                .replaceAll("\\s+", " ")
                .strip();
    }

    /**
     * Removes a netem qdisc.
     *
     * @param host host name
     */
    void clearNetem(String host) {
        exec(List.of("ip", "netns", "exec", namespace(host), "tc", "qdisc", "del", "dev", "eth0", "root"));
    }

    /**
     * Diverts a host's new TCP connections to one IPv4 address and port elsewhere (nftables DNAT in the
     * host's own output path): its sockets still name the original address, the packets go to the other.
     * Only connections opened from now on are diverted (the rule matches a SYN); see
     * {@link #resetConnections} for those already open.
     *
     * @param name      a name for the diversion, used by {@link #undivert}
     * @param host      whose connections
     * @param address   the IPv4 address they are opened to
     * @param port      and the port
     * @param toAddress where they go instead
     * @param toPort    and its port
     */
    void divert(String name, String host, String address, int port, String toAddress, int toPort) {
        nft(host, """
                table ip %s {
                  chain out {
                    type nat hook output priority -100; policy accept;
                    ip daddr %s tcp dport %d tcp flags & (syn | ack) == syn counter dnat to %s:%d
                  }
                }
                """.formatted(name, address, port, toAddress, toPort));
    }

    /**
     * Removes a diversion (connections it already diverted stay where they are until they close).
     *
     * @param name its name
     * @param host the host it was made in
     */
    void undivert(String name, String host) {
        exec(List.of("ip", "netns", "exec", namespace(host), "nft", "delete", "table", "ip", name));
    }

    /**
     * Resets the established TCP connections a host accepted on a port from a peer ({@code ss -K}: the
     * kernel aborts them and sends the peer a reset), so that the peer has to open new ones.
     *
     * @param host      the accepting host
     * @param localPort its listening port
     * @param peer      the peer's address
     * @return connections there were before (the kernel may lack {@code ss -K}: check with {@link #connections})
     */
    int resetConnections(String host, int localPort, String peer) {
        int before = connections(host, localPort, peer);
        exec(List.of(
                "ip",
                "netns",
                "exec",
                namespace(host),
                "ss",
                "-K",
                "-t",
                "-n",
                "state",
                "established",
                "sport",
                "=",
                ":" + localPort,
                "dst",
                peer));
        return before;
    }

    /**
     * Established TCP connections a host accepted on a port from a peer.
     *
     * @param host      the accepting host
     * @param localPort its listening port
     * @param peer      the peer's address
     * @return how many
     */
    int connections(String host, int localPort, String peer) {
        Result r = exec(List.of(
                "ip",
                "netns",
                "exec",
                namespace(host),
                "ss",
                "-H",
                "-t",
                "-n",
                "state",
                "established",
                "sport",
                "=",
                ":" + localPort,
                "dst",
                peer));
        if (!r.ok()) {
            throw new IllegalStateException("ss in " + host + " failed: " + r.output());
        }
        return (int) r.output().lines().filter(line -> !line.isBlank()).count();
    }

    /** Deletes every namespace with the prefix (killing what still runs in it) and the test link. */
    static void removeAll() {
        Result list = exec(List.of("ip", "netns", "list"));
        for (String line : list.output().split("\n")) {
            String ns = line.split(" ")[0].strip();
            if (!ns.startsWith(PREFIX)) {
                continue;
            }
            Result pids = exec(List.of("ip", "netns", "pids", ns));
            for (String pid : pids.output().split("\\s+")) {
                if (pid.matches("\\d+")) {
                    exec(List.of("kill", "-9", pid));
                }
            }
            exec(List.of("ip", "netns", "del", ns));
        }
        exec(List.of("ip", "link", "del", HOST_LINK));
        removeEtcFiles();
    }

    private static void removeEtcFiles() {
        if (!Files.isDirectory(NETNS_ETC)) {
            return;
        }
        try (var dirs = Files.list(NETNS_ETC)) {
            for (Path dir : dirs.filter(d -> d.getFileName().toString().startsWith(PREFIX))
                    .toList()) {
                try (var files = Files.list(dir)) {
                    for (Path file : files.toList()) {
                        Files.deleteIfExists(file);
                    }
                }
                Files.deleteIfExists(dir);
            }
            try (var left = Files.list(NETNS_ETC)) {
                if (left.findAny().isEmpty()) {
                    Files.deleteIfExists(NETNS_ETC);
                }
            }
        } catch (IOException e) {
            // Best effort, as for the namespaces: the next run's removeAll() tries again.
        }
    }

    @Override
    public void close() {
        lease.close();
    }

    static Result exec(List<String> command) {
        return HostCommand.exec(command, null, COMMAND_TIMEOUT);
    }

    private static Result exec(List<String> command, String stdin) {
        return HostCommand.exec(command, stdin, COMMAND_TIMEOUT);
    }

    private static void run(String... command) {
        HostCommand.run(COMMAND_TIMEOUT, command);
    }
}
