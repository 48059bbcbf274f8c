package dev.egress.coordination;

/** Command-line entry point of the embedded coordination node (placeholder until the server lands). */
public final class EmbeddedCoordinationMain {

    private EmbeddedCoordinationMain() {
    }

    /**
     * Starts the node.
     *
     * @param args {@code --port N --database /path}
     */
    public static void main(String[] args) {
        throw new UnsupportedOperationException("not built yet");
    }
}
