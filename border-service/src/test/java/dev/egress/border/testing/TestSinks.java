package dev.egress.border.testing;

import dev.egress.discovery.testing.RecordingSink;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * A {@link RecordingSink} for a test class's static field, closed by JUnit after the class's last
 * test: {@code @AutoClose static final RecordingSink sink = TestSinks.started();} instead of a
 * {@code @BeforeAll}/{@code @AfterAll} pair repeated in every class that forwards to a sink.
 */
public final class TestSinks {

    private TestSinks() {}

    /**
     * Starts a plain-http sink on loopback and an ephemeral port.
     *
     * @return the running sink
     * @throws UncheckedIOException if it cannot bind
     */
    public static RecordingSink started() {
        try {
            return RecordingSink.start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
