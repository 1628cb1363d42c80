package io.lahar.schema;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.SchemaParser;

/**
 * Reads a directory of {@code .avsc} files the way the avro-maven-plugin does: the shared types
 * under {@code common/} first (the plugin's {@code <imports>}), then the rest, all with one parser
 * so that files may refer to each other's types.
 */
final class AvscFiles {

    /** The module directory: surefire runs tests there. */
    static final Path MODULE = locateModule();

    static final Path CURRENT = MODULE.resolve("src/main/avro");

    static final Path RELEASED = MODULE.resolve("released");

    private AvscFiles() {}

    /** The schema each file defines at its top level, by the file's path relative to {@code dir}. */
    static Map<String, Schema> parse(Path dir) {
        SchemaParser parser = new SchemaParser();
        Map<String, Schema> byFile = new LinkedHashMap<>();
        for (Path file : files(dir)) {
            try {
                byFile.put(dir.relativize(file).toString(), parser.parse(file).mainSchema());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (RuntimeException e) {
                throw new AssertionError("cannot parse " + file + ": " + e.getMessage(), e);
            }
        }
        return byFile;
    }

    /** The top-level schemas of a directory, by full name. */
    static Map<String, Schema> byFullName(Path dir) {
        Map<String, Schema> byName = new LinkedHashMap<>();
        parse(dir).values().forEach(s -> byName.put(s.getFullName(), s));
        return byName;
    }

    /** Every .avsc under dir, shared types first, each group sorted by path. */
    static List<Path> files(Path dir) {
        try (Stream<Path> walk = Files.walk(dir)) {
            List<Path> all = new ArrayList<>(
                    walk.filter(p -> p.toString().endsWith(".avsc")).sorted().toList());
            Path common = dir.resolve("common");
            all.sort(Comparator.comparing((Path p) -> !p.startsWith(common)));
            return all;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The version directories under released/, oldest first (numeric comparison of the parts). */
    static List<Path> releasedVersions() {
        try (Stream<Path> dirs = Files.list(RELEASED)) {
            List<Path> versions = dirs.filter(Files::isDirectory)
                    .sorted(Comparator.comparing(
                            p -> Version.parse(p.getFileName().toString())))
                    .toList();
            if (versions.isEmpty()) {
                throw new AssertionError("no released schema version under " + RELEASED);
            }
            return versions;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The newest version directory under released/. */
    static Path latestReleased() {
        List<Path> versions = releasedVersions();
        return versions.get(versions.size() - 1);
    }

    private static Path locateModule() {
        Path here = Path.of("").toAbsolutePath();
        for (Path candidate : List.of(here, here.resolve("schemas"))) {
            if (Files.isDirectory(candidate.resolve("src/main/avro"))) {
                return candidate;
            }
        }
        throw new IllegalStateException("run the tests from the schemas module: " + here);
    }

    /** A dotted numeric version, compared part by part (so 0.10.0 is newer than 0.9.0). */
    record Version(List<Integer> parts) implements Comparable<Version> {
        static Version parse(String text) {
            return new Version(
                    Stream.of(text.split("\\.")).map(Integer::valueOf).toList());
        }

        @Override
        public int compareTo(Version other) {
            for (int i = 0; i < Math.max(parts.size(), other.parts.size()); i++) {
                int a = i < parts.size() ? parts.get(i) : 0;
                int b = i < other.parts.size() ? other.parts.get(i) : 0;
                if (a != b) {
                    return Integer.compare(a, b);
                }
            }
            return 0;
        }
    }
}
