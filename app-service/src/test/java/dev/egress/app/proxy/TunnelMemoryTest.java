package dev.egress.app.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class TunnelMemoryTest {

    @Test
    void aKeyOverItsBudgetWaitsUntilItsBytesAreWrittenWithoutHoldingOthersBack() {
        TunnelMemory memory = new TunnelMemory(1000, 100);
        TunnelMemory.Account acme = memory.account("acme");
        TunnelMemory.Account globex = memory.account("globex");
        AtomicInteger resumed = new AtomicInteger();

        acme.take(100);
        acme.whenRoom(resumed::incrementAndGet);
        assertThat(resumed).as("acme holds its whole budget").hasValue(0);

        globex.take(50);
        globex.whenRoom(resumed::incrementAndGet);
        assertThat(resumed).as("globex is under its own budget").hasValue(1);

        acme.give(60);
        assertThat(resumed).as("acme resumes once its bytes are written").hasValue(2);
        assertThat(memory.used()).isEqualTo(90);
    }

    @Test
    void theProcessBudgetHoldsEveryKeyBack() {
        TunnelMemory memory = new TunnelMemory(150, 100);
        TunnelMemory.Account acme = memory.account("acme");
        TunnelMemory.Account globex = memory.account("globex");
        AtomicInteger resumed = new AtomicInteger();

        acme.take(90);
        globex.take(60);
        globex.whenRoom(resumed::incrementAndGet);
        acme.whenRoom(resumed::incrementAndGet);
        assertThat(resumed).hasValue(0);

        acme.give(90);
        assertThat(resumed).hasValue(2);
        assertThat(memory.used()).isEqualTo(60);
    }
}
