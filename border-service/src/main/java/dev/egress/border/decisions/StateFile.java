package dev.egress.border.decisions;

import dev.egress.discovery.registry.BorderId;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * This Border's own memory of its decision record, outside the registry ({@code egress.decisions.state-file}):
 * the sequence number of the last record it stored, as {@code {"borderId":"border-a","sequence":12}}. It is how
 * the Border knows it had a record: whoever can write the registry can delete the record or put back an older
 * one it signed, and the registry alone cannot tell either from a Border that never stored anything. The file
 * can: a missing record, or one older than the remembered sequence, starts every IP {@code DISABLED}. It must
 * outlive the process (a volume of the node in Kubernetes, beside the Border's pinned pod); without it the
 * Border cannot tell, and says so once at startup.
 */
final class StateFile {

    private static final Logger log = LoggerFactory.getLogger(StateFile.class);
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final int MAX_BYTES = 4096;

    private final @Nullable Path file;
    private final BorderId borderId;

    StateFile(@Nullable Path file, BorderId borderId) {
        this.file = file;
        this.borderId = borderId;
    }

    /**
     * What the file says.
     *
     * @return the memory: none configured, a sequence (0 when the file does not exist yet), or unreadable
     */
    StartupDecisions.Memory read() {
        if (file == null) {
            return new StartupDecisions.Forgetful();
        }
        byte[] bytes;
        try {
            if (Files.size(file) > MAX_BYTES) {
                return new StartupDecisions.Unreadable("%s: larger than %d bytes".formatted(file, MAX_BYTES));
            }
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            return new StartupDecisions.Remembers(0); // this Border never stored a record here
        } catch (IOException e) {
            return new StartupDecisions.Unreadable("%s: %s".formatted(file, e));
        }
        try {
            JsonNode root = JSON.readTree(bytes);
            JsonNode id = root == null ? null : root.get("borderId");
            JsonNode sequence = root == null ? null : root.get("sequence");
            if (id == null || !id.isString() || !id.asString().equals(borderId.value())) {
                return new StartupDecisions.Unreadable(
                        "%s: borderId %s (expected: \"%s\")".formatted(file, id, borderId));
            }
            if (sequence == null || !sequence.isIntegralNumber() || sequence.asLong() < 0) {
                return new StartupDecisions.Unreadable(
                        "%s: sequence %s (expected: a whole number >= 0)".formatted(file, sequence));
            }
            return new StartupDecisions.Remembers(sequence.asLong());
        } catch (JacksonException e) {
            return new StartupDecisions.Unreadable("%s: not JSON (%s)".formatted(file, e.getOriginalMessage()));
        }
    }

    /**
     * Remembers that the registry now holds the record of this sequence. Written beside and moved over the file,
     * so a crash leaves the old or the new content, never half of one. A failure is logged and not fatal: the
     * registry holds the record, and the next write tries again.
     *
     * @param sequence the stored record's sequence
     */
    void remember(long sequence) {
        if (file == null) {
            return;
        }
        byte[] content = "{\"borderId\":\"%s\",\"sequence\":%d}\n"
                .formatted(borderId.value(), sequence)
                .getBytes(StandardCharsets.US_ASCII);
        try {
            Path parent = file.toAbsolutePath().getParent();
            Files.createDirectories(parent);
            Path temporary = parent.resolve(file.getFileName() + ".tmp");
            Files.write(temporary, content);
            try {
                Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException | RuntimeException e) {
            log.warn("Could not write egress.decisions.state-file {} (record {} is stored): {}", file, sequence, e);
        }
    }

    /**
     * Whether a file is configured.
     *
     * @return false when the Border cannot tell a deleted or replayed record from a new Border
     */
    boolean configured() {
        return file != null;
    }
}
