package dev.egress.border.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.ByteArrayOutputStream;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** {@link SentResets} follows frame boundaries through writes cut anywhere and counts only RST_STREAM frames. */
class SentResetsTest {

    private static final long WINDOW = Duration.ofSeconds(30).toNanos();

    /** A SETTINGS frame, then per stream a HEADERS, a DATA of 20 bytes and a RST_STREAM. */
    private static byte[] frames(int streams) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(H2Wire.frame(H2Wire.SETTINGS, 0, 0, new byte[6]));
        for (int stream = 1, i = 0; i < streams; i++, stream += 2) {
            out.writeBytes(H2Wire.frame(H2Wire.HEADERS, H2Wire.END_HEADERS, stream, new byte[7]));
            out.writeBytes(H2Wire.frame(0x0, 0, stream, new byte[20]));
            out.writeBytes(H2Wire.frame(H2Wire.RST_STREAM, 0, stream, new byte[] {0, 0, 0, 8}));
        }
        return out.toByteArray();
    }

    /** Feeds the bytes in pieces of the given size; false once any piece went over the limit. */
    private static boolean feed(SentResets resets, byte[] bytes, int piece) {
        boolean within = true;
        for (int i = 0; i < bytes.length; i += piece) {
            ByteBuf buf = Unpooled.wrappedBuffer(bytes, i, Math.min(piece, bytes.length - i));
            within &= resets.scan(buf);
            assertThat(buf.readerIndex()).as("nothing consumed").isZero();
        }
        return within;
    }

    @Test
    void allowsAsManyResetsAsTheLimitWhereverTheWritesAreCut() {
        for (int piece : new int[] {1, 3, 9, 13, 64, 100_000}) {
            assertThat(feed(new SentResets(200, WINDOW), frames(200), piece))
                    .as("200 resets, pieces of %d bytes", piece)
                    .isTrue();
        }
    }

    @Test
    void refusesTheResetPastTheLimitWhereverTheWritesAreCut() {
        for (int piece : new int[] {1, 3, 9, 13, 64, 100_000}) {
            assertThat(feed(new SentResets(200, WINDOW), frames(201), piece))
                    .as("201 resets, pieces of %d bytes", piece)
                    .isFalse();
        }
    }
}
