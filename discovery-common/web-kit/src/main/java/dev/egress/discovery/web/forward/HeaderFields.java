package dev.egress.discovery.web.forward;

/**
 * The one rule for header names and values of a webhook, checked by App (400 naming the header) and
 * again by the Border. It is the rule Netty's HTTP client applies when a header is set
 * ({@code io.netty.handler.codec.http.HttpHeaderValidationUtil}): a name is an HTTP token; a value is empty
 * or starts with a visible character and holds no control character but HTAB, and no DEL. Checking it
 * before the call means a value Netty would refuse is a 400 for the caller, never a failure inside the
 * Border after the call took a concurrency slot.
 *
 * <p>One addition: characters above U+00FF are refused too. Netty accepts them but writes one byte per
 * character on HTTP/1.1 and turns each into {@code ?}, so such a value could not reach the target unchanged.
 */
public enum HeaderFields {
    ;

    /**
     * Whether a header name is an HTTP token (RFC 9110 §5.6.2).
     *
     * @param name the name
     * @return true for a non-empty token
     */
    public static boolean validName(String name) {
        if (name == null || name.isEmpty()) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            if (!tchar(name.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /**
     * The first character of a header value that may not be sent.
     *
     * @param value the value
     * @return its index, or -1 when the value is valid
     */
    public static int invalidValueIndex(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            // The first character must be visible: Netty refuses leading SP and HTAB as well.
            boolean control = i == 0 ? c <= 0x20 : c < 0x20 && c != '\t';
            if (control || c == 0x7f || c > 0xff) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Describes why a value was refused, for the 400 naming the header.
     *
     * @param value the refused value
     * @param index its first invalid character, from {@link #invalidValueIndex}
     * @return e.g. {@code "U+0001 at index 1 (expected: no control characters but HTAB, ...)"}
     */
    public static String describe(String value, int index) {
        return "U+%04X at index %d (expected: visible characters, spaces and tabs inside, no other control "
                        .formatted((int) value.charAt(index), index)
                + "character, no DEL, nothing above U+00FF)";
    }

    private static boolean tchar(char c) {
        if (c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
            return true;
        }
        return "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
    }
}
