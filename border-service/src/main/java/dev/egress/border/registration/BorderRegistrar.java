package dev.egress.border.registration;

import dev.egress.border.IpNotHostedException;
import dev.egress.discovery.registry.AnnouncedIp;
import dev.egress.discovery.registry.Announcement;
import dev.egress.discovery.registry.BorderRegistry;
import dev.egress.discovery.registry.EgressIp;
import dev.egress.discovery.registry.IpStatus;
import dev.egress.discovery.registry.Registration;
import dev.egress.discovery.registry.RegistrationState;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publish side of this Border: owns the local announcement (what the egress path checks on every call)
 * and keeps the registry slot in step with it. Every change republishes the whole announcement.
 *
 * <p>The announcement is two layers: the statuses the operator set (and shutdown's DRAINING), and on top
 * of them the IPs the Border withholds by itself ({@link #withhold}, from the egress identity check), which
 * are announced {@code DISABLED} with their reason whatever the operator set, and come back with the
 * operator's status once no longer withheld. An IP the operator released ({@link #release}: moved to another
 * Border) is announced {@code DISABLED} with the reason {@link AnnouncedIp#RELEASED} above both, which App reads
 * as no claim of the IP.
 */
public final class BorderRegistrar {

    private static final Logger log = LoggerFactory.getLogger(BorderRegistrar.class);

    private final BorderRegistry registry;
    private final AtomicReference<Announcement> operator;
    private final AtomicReference<Announcement> local;
    private volatile Map<EgressIp, String> withheld = Map.of();
    private volatile Set<EgressIp> released = Set.of();
    private volatile Registration registration;
    private boolean closed;

    /**
     * Creates the registrar; nothing is published before {@link #register()}. Its state is exported once, by
     * the registry adapter's {@code egress.registry.registration.state} gauge.
     *
     * @param registry the registry port
     * @param initial  the first announcement
     */
    public BorderRegistrar(BorderRegistry registry, Announcement initial) {
        this.registry = registry;
        this.operator = new AtomicReference<>(initial);
        this.local = new AtomicReference<>(initial);
    }

    /** Starts holding the slot (returns at once; see {@link #state()}). */
    public synchronized void register() {
        if (registration != null) {
            return;
        }
        Announcement initial = local.get();
        Registration r = registry.register(initial);
        r.onStateChange(s -> log.info(
                "Registration of {} is {}; ips {}",
                initial.borderId(),
                s,
                local.get().ips()));
        registration = r;
        log.info("Registering {} at {} with ips {}", initial.borderId(), initial.endpoint(), initial.ips());
    }

    /**
     * The registration state; {@link RegistrationState#REGISTERING} before {@link #register()}.
     *
     * @return the state
     */
    public RegistrationState state() {
        Registration r = registration;
        return r == null ? RegistrationState.REGISTERING : r.state();
    }

    /**
     * The local announcement (the egress path's source of truth; the registry follows it).
     *
     * @return the announcement
     */
    public Announcement current() {
        return local.get();
    }

    /**
     * The generation the registry last accepted.
     *
     * @return the generation, or -1 before registration
     */
    public long publishedGeneration() {
        Registration r = registration;
        return r == null ? -1 : r.current().generation();
    }

    /**
     * The status of a hosted IP.
     *
     * @param ip the IP
     * @return its status, empty if not hosted here
     */
    public Optional<IpStatus> statusOf(EgressIp ip) {
        return local.get().statusOf(ip);
    }

    /**
     * The status the operator (or shutdown) set for a hosted IP, whether or not the Border withholds it by
     * itself: what a stored decision is compared with.
     *
     * @param ip the IP
     * @return its operator status, empty if not hosted here
     */
    public Optional<IpStatus> operatorStatusOf(EgressIp ip) {
        return operator.get().statusOf(ip);
    }

    /**
     * Changes one IP's status: applied locally at once (a DRAINING or DISABLED IP stops taking calls
     * immediately), then published.
     *
     * @param ip     a hosted IP
     * @param status the new status
     * @return completes with the published announcement
     * @throws IpNotHostedException if the IP is not hosted here
     */
    public CompletableFuture<Announcement> setStatus(EgressIp ip, IpStatus status) {
        if (statusOf(ip).isEmpty()) {
            throw new IpNotHostedException("ip %s is not hosted by this Border".formatted(ip));
        }
        return publish(a -> a.withIpStatus(ip, status));
    }

    /**
     * Changes every IP's status (DRAINING on shutdown).
     *
     * @param status the status
     * @return completes with the published announcement
     */
    public CompletableFuture<Announcement> setAll(IpStatus status) {
        return publish(a -> a.withAllIps(status));
    }

    /**
     * Withholds exactly these IPs (announced {@code DISABLED} with the reason), releasing any other
     * withheld before; republishes only if the announcement changes.
     *
     * @param reasons public address to reason slug; IPs not hosted here are ignored
     * @return completes with the published (or unchanged) announcement
     */
    public synchronized CompletableFuture<Announcement> withhold(Map<EgressIp, String> reasons) {
        Map<EgressIp, String> next = Map.copyOf(reasons);
        if (next.equals(withheld)) {
            return CompletableFuture.completedFuture(local.get());
        }
        withheld = next;
        return publish(a -> a);
    }

    /**
     * Releases a hosted IP (an operator moved it to another Border) or claims it again; republishes only if the
     * announcement changes. Before {@link #register()} this changes the local announcement only.
     *
     * @param ip     a hosted IP
     * @param release true to release it, false to claim it again
     * @return completes with the published (or unchanged) announcement
     * @throws IpNotHostedException if the IP is not hosted here
     */
    public synchronized CompletableFuture<Announcement> release(EgressIp ip, boolean release) {
        if (statusOf(ip).isEmpty()) {
            throw new IpNotHostedException("ip %s is not hosted by this Border".formatted(ip));
        }
        Set<EgressIp> next = new HashSet<>(released);
        if (!(release ? next.add(ip) : next.remove(ip))) {
            return CompletableFuture.completedFuture(local.get());
        }
        released = Set.copyOf(next);
        return publish(a -> a);
    }

    /**
     * Whether an operator released a hosted IP here.
     *
     * @param ip the IP
     * @return true if released
     */
    public boolean isReleased(EgressIp ip) {
        return released.contains(ip);
    }

    /**
     * Publishes the same content again as a new generation: after a certificate rotation, so that the
     * registry holds an announcement signed with the new key before the old certificate expires.
     *
     * @return completes with the published announcement
     */
    public CompletableFuture<Announcement> republish() {
        return publish(a -> a);
    }

    // Synchronized so that updates reach the registration in the order they were applied locally.
    private synchronized CompletableFuture<Announcement> publish(UnaryOperator<Announcement> change) {
        Announcement base = operator.updateAndGet(change);
        Announcement next = local.updateAndGet(previous -> overlay(base, withheld, released));
        log.info("Announcing {}: ips {}", next.borderId(), next.ips());
        Registration r = registration;
        if (r == null) {
            return CompletableFuture.completedFuture(next);
        }
        return r.update(next);
    }

    private static Announcement overlay(Announcement base, Map<EgressIp, String> withheld, Set<EgressIp> released) {
        if (withheld.isEmpty() && released.isEmpty()) {
            return base;
        }
        List<AnnouncedIp> ips = base.ips().stream()
                .map(ip -> released.contains(ip.ip())
                        ? ip.withheld(AnnouncedIp.RELEASED)
                        : withheld.containsKey(ip.ip()) ? ip.withheld(withheld.get(ip.ip())) : ip)
                .toList();
        return new Announcement(
                base.version(), base.borderId(), base.endpoint(), ips, base.publishedAt(), base.generation());
    }

    /** Releases the slot so App stops routing here at once. Idempotent. */
    public synchronized void close() {
        Registration r = registration;
        if (r != null && !closed) {
            closed = true;
            r.close();
            log.info("Released the registry slot of {}", local.get().borderId());
        }
    }
}
