package dev.egress.discovery.web.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/**
 * HTTP/1.1 on a plain socket, for tests that need what an HTTP client library hides: the exact arrival order of
 * requests on one kept-alive connection, pipelining, a connection the server closes.
 */
public final class RawHttp {

    private RawHttp() {}

    /**
     * A bodyless GET.
     *
     * @param path the request target
     * @return the request's bytes as text (US-ASCII)
     */
    public static String get(String path) {
        return "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
    }

    /**
     * On one kept-alive connection: two pipelined GETs, so that the second arrives while the first is still being
     * answered (the server buffers it), then, after both answers, a third. A server that stops reading after the
     * buffered request never answers the third (the socket's 10 s read timeout ends the wait).
     *
     * @param port       the server's port on 127.0.0.1
     * @param first      a path answered off the event loop (so the second certainly waits behind it)
     * @param buffered   a path answered at once
     * @param next       the path of the third request
     * @return the three answers' status lines and headers, in order
     * @throws IOException on a closed connection or a read timeout
     */
    public static List<String> afterABufferedRequest(int port, String first, String buffered, String next)
            throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            out.write((get(first) + get(buffered)).getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String firstAnswer = readResponse(in);
            String bufferedAnswer = readResponse(in);
            out.write(get(next).getBytes(StandardCharsets.US_ASCII));
            out.flush();
            return List.of(firstAnswer, bufferedAnswer, readResponse(in));
        }
    }

    /**
     * Reads one response: status line and headers, then its body by {@code Content-Length} or chunked encoding
     * (read and dropped), leaving the connection at the start of the next response.
     *
     * @param in the connection's input
     * @return the status line and headers, each line ending in CRLF
     * @throws IOException when the connection closes first, or on the socket's read timeout
     */
    public static String readResponse(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        String line;
        while (!(line = readLine(in)).isEmpty()) {
            head.append(line).append("\r\n");
        }
        long length = 0;
        boolean chunked = false;
        for (String header : head.toString().split("\r\n")) {
            String lower = header.toLowerCase(Locale.ROOT);
            if (lower.startsWith("content-length:")) {
                length =
                        Long.parseLong(header.substring(header.indexOf(':') + 1).trim());
            } else if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) {
                chunked = true;
            }
        }
        if (chunked) {
            int size;
            do {
                size = Integer.parseInt(readLine(in).trim(), 16);
                in.readNBytes(size + 2); // the chunk and its CRLF (after the last one: only the CRLF)
            } while (size > 0);
        } else {
            in.readNBytes((int) length);
        }
        return head.toString();
    }

    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) != '\n') {
            if (b < 0) {
                throw new IOException("connection closed after: " + line.toString(StandardCharsets.US_ASCII));
            }
            if (b != '\r') {
                line.write(b);
            }
        }
        return line.toString(StandardCharsets.US_ASCII);
    }
}
