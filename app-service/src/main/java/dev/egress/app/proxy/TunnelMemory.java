package dev.egress.app.proxy;

import java.util.Iterator;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The byte budget of what App holds on its way from targets to senders ({@code egress.proxy.limits.buffer-memory},
 * {@code buffer-memory-per-tenant}), enforced by back pressure: a tunnel asks its Border's stream for the next bytes
 * only while both its tenant and the process are under budget, and otherwise waits until bytes held are written.
 * Nothing is ever dropped or refused here: a tunnel that waits stops reading the stream, the stream's HTTP/2 flow
 * control stops the Border reading the target. A key is a tenant, or for the shared pool and the credential-less
 * door a sender address, so those senders do not share one budget with everybody.
 */
final class TunnelMemory {

    private final long total;
    private final long perKey;
    private final AtomicLong used = new AtomicLong();
    private final ConcurrentHashMap<String, AtomicLong> byKey = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<Waiter> waiting = new ConcurrentLinkedQueue<>();

    TunnelMemory(long total, long perKey) {
        this.total = total;
        this.perKey = perKey;
    }

    /**
     * One tunnel's account.
     *
     * @param key its tenant's quota key
     * @return the account
     */
    Account account(String key) {
        return new Account(key);
    }

    /** Bytes held now, every tunnel together. */
    long used() {
        return used.get();
    }

    private record Waiter(Account account, Runnable resume) {}

    private void wake() {
        for (Iterator<Waiter> it = waiting.iterator(); it.hasNext(); ) {
            Waiter waiter = it.next();
            if (waiter.account.room() && waiting.remove(waiter)) {
                waiter.resume.run();
            }
        }
    }

    /** The bytes one tunnel holds, counted to its key and to the process. */
    final class Account {
        private final String key;

        private Account(String key) {
            this.key = key;
        }

        /** Bytes received from the stream, held until written to the sender. */
        void take(long bytes) {
            used.addAndGet(bytes);
            // Under the map's lock for the key, as give's removal of an emptied count is: no count is lost.
            byKey.compute(key, (k, held) -> {
                AtomicLong count = held == null ? new AtomicLong() : held;
                count.addAndGet(bytes);
                return count;
            });
        }

        /** Bytes written to the sender (or dropped with the connection): room for others. */
        void give(long bytes) {
            used.addAndGet(-bytes);
            byKey.computeIfPresent(key, (k, held) -> held.addAndGet(-bytes) == 0 ? null : held);
            if (!waiting.isEmpty()) {
                wake();
            }
        }

        /** Whether this tunnel may ask for more: its key and the process are under budget. */
        boolean room() {
            AtomicLong held = byKey.get(key);
            return used.get() < total && (held == null || held.get() < perKey);
        }

        /**
         * Runs an action now if there is room, else once bytes held are given back and there is.
         *
         * @param resume what to do (it may run on another thread)
         */
        void whenRoom(Runnable resume) {
            if (room()) {
                resume.run();
                return;
            }
            Waiter waiter = new Waiter(this, resume);
            waiting.add(waiter);
            // Bytes given back between the check and the queueing would wake nobody: check again.
            if (room() && waiting.remove(waiter)) {
                resume.run();
            }
        }
    }
}
