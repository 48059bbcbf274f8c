package dev.egress.system;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/** A bare CONNECT to App's proxy on loopback, byte by byte, for tests that need the raw answer head. */
final class ProxyConnect {

    /**
     * A proxy answer's head.
     *
     * @param status its status code, or -1 when the proxy closed before one
     * @param head   the head as read, up to the blank line
     */
    record Answer(int status, String head) {}

    private ProxyConnect() {}

    /**
     * A connection to the proxy from a loopback source address.
     *
     * @param from      the loopback address to connect from (127.0.0.x)
     * @param proxyPort the proxy's port on 127.0.0.1
     * @return the connected socket, with a 30 s read timeout
     * @throws IOException if it cannot connect
     */
    static Socket open(String from, int proxyPort) throws IOException {
        Socket socket = new Socket();
        socket.bind(new InetSocketAddress(InetAddress.getByName(from), 0));
        socket.connect(new InetSocketAddress("127.0.0.1", proxyPort), 5000);
        socket.setSoTimeout(30_000);
        return socket;
    }

    /**
     * Sends a CONNECT and reads the answer's head (and nothing after it).
     *
     * @param socket      a connection to the proxy
     * @param authority   the CONNECT target
     * @param credentials {@code user:password} for {@code Proxy-Authorization: Basic}
     * @return the answer
     * @throws IOException if the connection fails
     */
    static Answer connect(Socket socket, String authority, String credentials) throws IOException {
        socket.getOutputStream()
                .write(("CONNECT " + authority + " HTTP/1.1\r\nHost: " + authority + "\r\nProxy-Authorization: Basic "
                                + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8))
                                + "\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
        StringBuilder head = new StringBuilder();
        InputStream in = socket.getInputStream();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                break;
            }
            head.append((char) b);
        }
        String text = head.toString();
        String[] words = text.split(" ", 3);
        return new Answer(words.length > 1 ? Integer.parseInt(words[1]) : -1, text);
    }
}
