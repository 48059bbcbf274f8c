package dev.egress.border.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.egress.border.testing.BorderTestProperties;
import dev.egress.border.testing.LocalBorderTest;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import org.junit.jupiter.api.RepeatedTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * A keep-alive connection goes on being served after a request that arrived while the previous one was still
 * finishing. Reactor Netty up to 1.3.7 buffered such a request, answered it, and then never read from the
 * connection again: the client's next request hung until its own timeout (seen as a 60 s WebTestClient
 * timeout in CI). Pipelining the first two requests makes that arrival order certain.
 */
@LocalBorderTest({
    "egress.border.id=border-keepalive",
    "egress.border.ips=127.0.0.2",
    BorderTestProperties.LOCAL,
    BorderTestProperties.OPERATOR
})
class KeepAliveTest {

    @LocalServerPort
    int port;

    @RepeatedTest(3)
    void answersTheNextRequestAfterARequestThatWaitedForThePreviousOne() throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();

            // The scrape runs off the event loop, so the 401 (answered at once) waits behind it, buffered.
            out.write((get("/actuator/prometheus") + get("/ops/v1/ips")).getBytes(StandardCharsets.US_ASCII));
            out.flush();
            assertThat(readResponse(in)).startsWith("HTTP/1.1 200");
            assertThat(readResponse(in)).startsWith("HTTP/1.1 401");

            out.write(get("/actuator/health/liveness").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            assertThat(readResponse(in)).startsWith("HTTP/1.1 200");
        }
    }

    private static String get(String path) {
        return "GET " + path + " HTTP/1.1\r\nHost: border\r\n\r\n";
    }

    /** One response: status line and headers, then a Content-Length or chunked body (read and dropped). */
    private static String readResponse(InputStream in) throws IOException {
        String head = readUntilBlankLine(in);
        String lower = head.toLowerCase(Locale.ROOT);
        int length = lower.indexOf("\ncontent-length:");
        if (length >= 0) {
            int end = lower.indexOf('\r', length + 1);
            in.readNBytes(Integer.parseInt(lower.substring(length + 16, end).trim()));
        } else if (lower.contains("\ntransfer-encoding: chunked")) {
            int size;
            do {
                size = Integer.parseInt(readLine(in).trim(), 16);
                in.readNBytes(size + 2); // the chunk and its CRLF (the last one: just the CRLF)
            } while (size > 0);
        }
        return head;
    }

    private static String readUntilBlankLine(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        String line;
        while (!(line = readLine(in)).isEmpty()) {
            head.append(line).append("\r\n");
        }
        return head.toString();
    }

    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) != '\n') {
            if (b < 0) {
                throw new IOException("connection closed after: " + line);
            }
            if (b != '\r') {
                line.write(b);
            }
        }
        return line.toString(StandardCharsets.US_ASCII);
    }
}
