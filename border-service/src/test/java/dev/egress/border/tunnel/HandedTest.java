package dev.egress.border.tunnel;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * The signal the splice waits on before reading a target again: a buffer handed to App's stream tells when the write
 * path let go of it, not before, however it was sliced on the way (the HTTP/2 encoder and TLS take slices of it).
 */
class HandedTest {

    @Test
    void tellsItsReleaseOnlyOnceEveryHolderLetGo() {
        ByteBuf read = PooledByteBufAllocator.DEFAULT.directBuffer(16);
        read.writeCharSequence("from the target", StandardCharsets.US_ASCII);
        Handed handed = new Handed(read);
        AtomicBoolean released = new AtomicBoolean();
        handed.released().subscribe(null, null, () -> released.set(true));

        assertThat(handed.toString(StandardCharsets.US_ASCII)).isEqualTo("from the target");
        ByteBuf frame = handed.readRetainedSlice(4); // as a frame queued in the flow controller holds it
        handed.release();
        assertThat(released).isFalse();
        assertThat(read.refCnt()).isEqualTo(1);

        frame.release();
        assertThat(released).isTrue();
        assertThat(read.refCnt()).isZero();
    }
}
