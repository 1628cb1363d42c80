package io.lahar.emulator;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The emulated API's objects on disk, so that an emulator started again on the same directory has
 * every object it had, killed or stopped: a snapshot ({@value #SNAPSHOT}) and a journal
 * ({@value #JOURNAL}) of the changes since, one JSON line per change, each with the store's resource
 * version then (the snapshot starts with it), so a restarted store never gives a version out
 * twice, not even one of an object deleted since. A change is appended before
 * the store applies and announces it, so nothing a client was told about is missing after a
 * restart. Lines are written straight to the file, not fsync'd: they survive the death of the
 * process, not of the machine. A journal grown past {@link #compactAfter} lines, and any journal
 * found at start, is folded into a new snapshot (written aside, then renamed over the old one;
 * replaying a journal over the snapshot made from it gives the same objects, so a crash between the
 * rename and the journal's truncation loses nothing). A lock file keeps a second emulator off the
 * directory.
 *
 * <p>Not thread-safe: the store calls it under its write lock.
 */
final class ObjectJournal implements AutoCloseable {

    static final String SNAPSHOT = "objects.jsonl";
    static final String JOURNAL = "journal.jsonl";
    static final String LOCK = "lock";

    private static final System.Logger LOG = System.getLogger(ObjectJournal.class.getName());
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int MIN_COMPACT_AFTER = 10_000;

    /** One stored object: the request path it was stored under (the store derives its key from it too) and its JSON. */
    record Stored(String path, String json) {}

    private final Path dir;
    private final FileChannel lockChannel;
    private final FileLock lock;
    /** identity (apiVersion/kind/namespace/name) → the object, in the order the objects were first stored. */
    private final Map<String, Stored> objects;
    /**
     * The store's resource version at the last change recorded: every version it ever gave out,
     * those of objects deleted since included, so a store started again counts on from past them.
     */
    private long version;

    private Writer journal;
    private long journalLines;

    private ObjectJournal(
            Path dir,
            FileChannel lockChannel,
            FileLock lock,
            Map<String, Stored> objects,
            long version,
            long journalLines)
            throws IOException {
        this.version = version;
        this.dir = dir;
        this.lockChannel = lockChannel;
        this.lock = lock;
        this.objects = objects;
        this.journalLines = journalLines;
        this.journal = Files.newBufferedWriter(
                dir.resolve(JOURNAL),
                StandardCharsets.UTF_8,
                StandardOpenOption.CREATE,
                StandardOpenOption.APPEND,
                StandardOpenOption.WRITE);
    }

    /**
     * Opens (creating it if need be) the directory and reads what it holds; a last journal line cut
     * short by a crash is skipped with a warning. Fails if another emulator holds the directory.
     */
    static ObjectJournal open(Path dir) {
        try {
            Files.createDirectories(dir);
            FileChannel channel =
                    FileChannel.open(dir.resolve(LOCK), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock lock;
            try {
                lock = channel.tryLock();
            } catch (OverlappingFileLockException held) {
                lock = null;
            }
            if (lock == null) {
                channel.close();
                throw new IllegalStateException(dir + " is in use by another kube-emulator");
            }
            try {
                Map<String, Stored> objects = new LinkedHashMap<>();
                long[] version = {0};
                read(dir.resolve(SNAPSHOT), objects, version);
                long lines = read(dir.resolve(JOURNAL), objects, version);
                ObjectJournal journal = new ObjectJournal(dir, channel, lock, objects, version[0], lines);
                if (lines > 0) {
                    // A fresh snapshot and an empty journal: no line is ever appended after one
                    // that a crash cut short.
                    journal.compact();
                }
                return journal;
            } catch (IOException | RuntimeException e) {
                lock.release();
                channel.close();
                throw e;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the kube-emulator's data in " + dir + ": " + e.getMessage(), e);
        }
    }

    /** The objects held, each with the path it was stored under, in the order they were first stored. */
    List<Stored> objects() {
        return List.copyOf(objects.values());
    }

    /**
     * The largest resource version the store gave out (0 if none): that of the last change
     * recorded, or the largest {@code metadata.resourceVersion} held; the store counts on from it.
     */
    long maxResourceVersion() {
        long max = version;
        for (Stored stored : objects.values()) {
            try {
                max = Math.max(
                        max,
                        Long.parseLong(tree(stored.json())
                                .path("metadata")
                                .path("resourceVersion")
                                .asText("0")));
            } catch (NumberFormatException notANumber) {
                // Not one of the store's versions: it does not bound the counter.
            }
        }
        return max;
    }

    /**
     * Records a change before it is applied: {@code before} (the stored JSON, or null for a create)
     * becomes {@code after} (null for a delete), stored under {@code path}, when the store's resource
     * version is {@code storeVersion}.
     */
    void record(String path, String before, String after, long storeVersion) {
        record(path, before, null, after, null, storeVersion);
    }

    /**
     * As {@link #record(String, String, String, long)}, with each object's tree when the writer has
     * it (null: parsed here), so that a write is not parsed again to be journaled.
     */
    void record(String path, String before, JsonNode beforeTree, String after, JsonNode afterTree, long storeVersion) {
        try {
            version = Math.max(version, storeVersion);
            JsonNode afterNode = after == null ? null : afterTree != null ? afterTree : parse(after);
            String beforeId = before == null ? null : identity(beforeTree != null ? beforeTree : parse(before));
            String afterId = afterNode == null ? null : identity(afterNode);
            if (beforeId != null && !beforeId.equals(afterId)) {
                append(deleteLine(beforeId, version));
                objects.remove(beforeId);
            }
            if (afterId != null) {
                append(putLine(path, version, after, afterNode));
                objects.put(afterId, new Stored(path, after));
            }
            if (journalLines >= compactAfter()) {
                compact();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot write the kube-emulator's journal in " + dir + ": " + e.getMessage(), e);
        }
    }

    /** How many journal lines make a new snapshot worth writing: several times the objects held. */
    long compactAfter() {
        return Math.max(MIN_COMPACT_AFTER, 4L * objects.size());
    }

    /** Folds the journal into a new snapshot and starts an empty journal. */
    void compact() throws IOException {
        Path snapshot = dir.resolve(SNAPSHOT);
        Path aside = dir.resolve(SNAPSHOT + ".tmp");
        try (Writer out = Files.newBufferedWriter(aside, StandardCharsets.UTF_8)) {
            out.write(JSON.writeValueAsString(
                    JSON.createObjectNode().put("op", "version").put("version", version)));
            out.write('\n');
            for (Stored stored : objects.values()) {
                out.write(putLine(stored.path(), -1, stored.json(), null));
                out.write('\n');
            }
        }
        Files.move(aside, snapshot, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        journal.close();
        journal = Files.newBufferedWriter(
                dir.resolve(JOURNAL),
                StandardCharsets.UTF_8,
                StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE);
        journalLines = 0;
    }

    @Override
    public void close() {
        try {
            journal.close();
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "closing the journal in " + dir + ": " + e.getMessage());
        }
        try {
            lock.release();
            lockChannel.close();
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "releasing " + dir.resolve(LOCK) + ": " + e.getMessage());
        }
    }

    private void append(String line) throws IOException {
        // One write of the whole line, flushed before the store goes on: a crash leaves whole lines
        // and at most one cut-short last line, which reading skips.
        journal.write(line + "\n");
        journal.flush();
        journalLines++;
    }

    /**
     * Applies the lines of {@code file} (if it exists) to {@code objects}, and the largest version
     * they name to {@code version[0]}; returns how many lines there were.
     */
    private static long read(Path file, Map<String, Stored> objects, long[] version) throws IOException {
        if (!Files.exists(file)) {
            return 0;
        }
        List<String> lines = new ArrayList<>();
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                lines.add(line);
            }
        }
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.isBlank()) {
                continue;
            }
            JsonNode entry;
            try {
                entry = JSON.readTree(line);
            } catch (JsonProcessingException e) {
                if (i == lines.size() - 1) {
                    LOG.log(
                            System.Logger.Level.WARNING,
                            file + ": the last line was cut short (a crash while it" + " was written) and is skipped: "
                                    + e.getOriginalMessage());
                    continue;
                }
                throw new IllegalStateException(
                        file + ":" + (i + 1) + ": not a journal line: " + e.getOriginalMessage(), e);
            }
            version[0] = Math.max(version[0], entry.path("version").asLong(0));
            switch (entry.path("op").asText()) {
                case "put" -> {
                    JsonNode object = entry.path("object");
                    objects.put(
                            identity(object), new Stored(entry.path("path").asText(), JSON.writeValueAsString(object)));
                }
                case "delete" -> objects.remove(entry.path("id").asText());
                case "version" -> {
                    // Only the version, read above.
                }
                default -> throw new IllegalStateException(file + ":" + (i + 1) + ": unknown op " + entry.path("op"));
            }
        }
        return lines.size();
    }

    /**
     * The line that stores {@code json} under {@code path} (at {@code version}; none if negative):
     * the object's JSON as the store holds it, written as it is, unless it spans lines.
     */
    private static String putLine(String path, long version, String json, JsonNode tree)
            throws JsonProcessingException {
        if (json.indexOf('\n') >= 0 || json.indexOf('\r') >= 0) {
            ObjectNode line = JSON.createObjectNode().put("op", "put").put("path", path);
            if (version >= 0) {
                line.put("version", version);
            }
            line.set("object", tree != null ? tree : parse(json));
            return JSON.writeValueAsString(line);
        }
        return "{\"op\":\"put\",\"path\":" + JSON.writeValueAsString(path)
                + (version >= 0 ? ",\"version\":" + version : "") + ",\"object\":" + json + "}";
    }

    private static String deleteLine(String id, long version) throws JsonProcessingException {
        return JSON.writeValueAsString(
                JSON.createObjectNode().put("op", "delete").put("id", id).put("version", version));
    }

    /** An object's identity in the API: {@code apiVersion/kind/namespace/name} (namespace empty if cluster-scoped). */
    static String identity(JsonNode object) {
        JsonNode metadata = object.path("metadata");
        return object.path("apiVersion").asText("") + "/" + object.path("kind").asText("") + "/"
                + metadata.path("namespace").asText("") + "/"
                + metadata.path("name").asText("");
    }

    private static JsonNode parse(String json) throws JsonProcessingException {
        return JSON.readTree(json);
    }

    /** A stored object's JSON, which was parsed when it was stored. */
    private static JsonNode tree(String json) {
        try {
            return JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a stored object is not JSON: " + e.getOriginalMessage(), e);
        }
    }
}
