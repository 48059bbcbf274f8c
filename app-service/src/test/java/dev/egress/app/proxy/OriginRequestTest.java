package dev.egress.app.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class OriginRequestTest {

    private static HttpRequest request(String uri) {
        return new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, uri);
    }

    private static String text(ByteBuf bytes) {
        try {
            return bytes.toString(StandardCharsets.ISO_8859_1);
        } finally {
            bytes.release();
        }
    }

    @Test
    void readsHostAndPortWithPort80AsTheDefault() {
        assertThat(OriginRequest.of(request("http://Example.com/a")).target().authority())
                .isEqualTo("example.com:80");
        assertThat(OriginRequest.of(request("http://example.com:8080/a"))
                        .target()
                        .authority())
                .isEqualTo("example.com:8080");
        assertThat(OriginRequest.of(request("http://[2001:db8::1]/a")).target().authority())
                .isEqualTo("[2001:db8::1]:80");
        assertThat(OriginRequest.of(request("http://[2001:db8::1]:81")).target().authority())
                .isEqualTo("[2001:db8::1]:81");
        assertThat(OriginRequest.of(request("HTTP://example.com?q=1")).target().port())
                .isEqualTo(80);
    }

    @Test
    void refusesNoHostUserInfoABadPortAndAnotherScheme() {
        assertThatThrownBy(() -> OriginRequest.of(request("http:///a"))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> OriginRequest.of(request("http://u:p@example.com/")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("user info");
        assertThatThrownBy(() -> OriginRequest.of(request("http://example.com:99999/")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> OriginRequest.of(request("http://example.com:/")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> OriginRequest.of(request("https://example.com/")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> OriginRequest.of(request("/hook"))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void rewritesTheRequestLineToOriginFormAndDropsHopByHopHeaders() {
        HttpRequest request = request("http://example.com:8080/hook?a=1#frag");
        request.headers()
                .add("Host", "example.com:8080")
                .add("Proxy-Authorization", "Basic c2VjcmV0")
                .add("Proxy-Connection", "keep-alive")
                .add("Connection", "keep-alive, X-Private")
                .add("X-Private", "1")
                .add("Keep-Alive", "timeout=5")
                .add("TE", "trailers")
                .add("Trailer", "X-Sum")
                .add("Upgrade", "h2c")
                .add("Content-Type", "application/json")
                .add("X-Kept", "Ä");
        String head = text(OriginRequest.of(request).head(ByteBufAllocator.DEFAULT));
        assertThat(head)
                .isEqualTo("POST /hook?a=1 HTTP/1.1\r\nHost: example.com:8080\r\nContent-Type: application/json\r\n"
                        + "X-Kept: Ä\r\nConnection: close\r\n\r\n");
    }

    @Test
    void addsHostWhenTheSenderSentNoneAndASlashForAnEmptyPath() {
        HttpRequest request = new DefaultHttpRequest(HttpVersion.HTTP_1_0, HttpMethod.GET, "http://example.com");
        assertThat(text(OriginRequest.of(request).head(ByteBufAllocator.DEFAULT)))
                .isEqualTo("GET / HTTP/1.0\r\nHost: example.com\r\nConnection: close\r\n\r\n");
        HttpRequest query = request("http://example.com?q=1");
        assertThat(text(OriginRequest.of(query).head(ByteBufAllocator.DEFAULT))).startsWith("POST /?q=1 HTTP/1.1\r\n");
    }

    @Test
    void passesALengthDelimitedBodyUnchangedAndNothingAfterItsEnd() {
        HttpRequest request = request("http://example.com/");
        request.headers().add("Content-Length", "6");
        OriginRequest origin = OriginRequest.of(request);
        DefaultHttpContent first = new DefaultHttpContent(Unpooled.copiedBuffer("abc", StandardCharsets.US_ASCII));
        assertThat(text(origin.body(ByteBufAllocator.DEFAULT, first))).isEqualTo("abc");
        assertThat(origin.finished()).isFalse();
        DefaultLastHttpContent last =
                new DefaultLastHttpContent(Unpooled.copiedBuffer("def", StandardCharsets.US_ASCII));
        assertThat(text(origin.body(ByteBufAllocator.DEFAULT, last))).isEqualTo("def");
        assertThat(origin.finished()).isTrue();
        assertThat(origin.body(
                        ByteBufAllocator.DEFAULT,
                        new DefaultHttpContent(Unpooled.copiedBuffer("GET / HTTP/1.1", StandardCharsets.US_ASCII))))
                .isNull();
        first.release();
        last.release();
    }

    @Test
    void anEmptyLastPieceOfALengthDelimitedBodySendsNothing() {
        OriginRequest origin = OriginRequest.of(request("http://example.com/"));
        assertThat(origin.body(ByteBufAllocator.DEFAULT, LastHttpContent.EMPTY_LAST_CONTENT))
                .isNull();
        assertThat(origin.finished()).isTrue();
    }

    @Test
    void reframesAChunkedBodyInChunksOfTheSameBytesWithItsTrailers() {
        HttpRequest request = request("http://example.com/");
        request.headers().add("Transfer-Encoding", "chunked");
        OriginRequest origin = OriginRequest.of(request);
        DefaultHttpContent piece =
                new DefaultHttpContent(Unpooled.copiedBuffer("0123456789abcdefX", StandardCharsets.US_ASCII));
        assertThat(text(origin.body(ByteBufAllocator.DEFAULT, piece))).isEqualTo("11\r\n0123456789abcdefX\r\n");
        DefaultLastHttpContent last = new DefaultLastHttpContent(Unpooled.EMPTY_BUFFER);
        last.trailingHeaders().add("X-Sum", "42");
        assertThat(text(origin.body(ByteBufAllocator.DEFAULT, last))).isEqualTo("0\r\nX-Sum: 42\r\n\r\n");
        piece.release();
    }

    @Test
    void aChunkedLastPieceWithDataSendsItThenTheEnd() {
        HttpRequest request = request("http://example.com/");
        request.headers().add("Transfer-Encoding", "chunked");
        OriginRequest origin = OriginRequest.of(request);
        DefaultLastHttpContent last =
                new DefaultLastHttpContent(Unpooled.copiedBuffer("ab", StandardCharsets.US_ASCII));
        assertThat(text(origin.body(ByteBufAllocator.DEFAULT, last))).isEqualTo("2\r\nab\r\n0\r\n\r\n");
        last.release();
    }
}
