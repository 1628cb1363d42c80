package io.lahar.core.api;

import com.fasterxml.jackson.core.ObjectCodec;
import com.fasterxml.jackson.core.io.IOContext;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactoryBuilder;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.ByteArrayInputStream;
import java.io.CharArrayReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.events.AliasEvent;
import org.yaml.snakeyaml.events.CollectionEndEvent;
import org.yaml.snakeyaml.events.CollectionStartEvent;
import org.yaml.snakeyaml.events.DocumentStartEvent;
import org.yaml.snakeyaml.events.Event;
import org.yaml.snakeyaml.events.NodeEvent;

/**
 * YAML's anchors and aliases, expanded as YAML means them: {@code args: *b} is the node anchored
 * {@code &b}, not the string "b" (Jackson's parser reports an alias as its name). The expansion
 * happens on SnakeYAML's event stream, under Jackson's parser, so every scalar is still typed as
 * Jackson types it: a document without aliases reads exactly as before.
 *
 * <p>Bounded against "billion laughs" (aliases of aliases, each doubling the document): per
 * document at most {@link LoaderOptions#getMaxAliasesForCollections()} aliases of a mapping or a
 * sequence (SnakeYAML's own limit, which its composer applies and Jackson's event-level reading
 * does not), and at most {@link #MAX_EXPANDED_EVENTS} events added by all aliases together; the
 * document itself is bounded by {@link LoaderOptions#getCodePointLimit()}.
 */
final class YamlAliases {

    /** The most events (scalars, starts and ends of mappings and sequences) aliases may add to one document. */
    static final int MAX_EXPANDED_EVENTS = 100_000;

    private YamlAliases() {}

    /** A YAML factory whose parsers expand aliases. */
    static YAMLFactory factory(YAMLFactoryBuilder builder) {
        return new Factory(builder);
    }

    private static final class Factory extends YAMLFactory {

        Factory(YAMLFactoryBuilder builder) {
            super(builder);
        }

        private Factory(Factory src, ObjectCodec codec) {
            super(src, codec);
        }

        @Override
        public YAMLFactory copy() {
            return new Factory(this, null);
        }

        @Override
        protected YAMLParser _createParser(Reader r, IOContext ctxt) {
            return new Parser(ctxt, _parserFeatures, _yamlParserFeatures, _loaderOptions, _objectCodec, r);
        }

        @Override
        protected YAMLParser _createParser(char[] data, int offset, int len, IOContext ctxt, boolean recyclable) {
            return _createParser(new CharArrayReader(data, offset, len), ctxt);
        }

        @Override
        protected YAMLParser _createParser(InputStream in, IOContext ctxt) {
            return _createParser(new InputStreamReader(in, StandardCharsets.UTF_8), ctxt);
        }

        @Override
        protected YAMLParser _createParser(byte[] data, int offset, int len, IOContext ctxt) {
            return _createParser(new ByteArrayInputStream(data, offset, len), ctxt);
        }
    }

    /** Jackson's parser over the expanded events. */
    private static final class Parser extends YAMLParser {
        private final Expander expander;

        Parser(
                IOContext ctxt,
                int parserFeatures,
                int yamlFeatures,
                LoaderOptions options,
                ObjectCodec codec,
                Reader r) {
            super(ctxt, parserFeatures, yamlFeatures, options, codec, r);
            this.expander = new Expander(options.getMaxAliasesForCollections());
        }

        @Override
        protected Event getEvent() throws IOException {
            return expander.next(this::sourceEvent);
        }

        private Event sourceEvent() throws IOException {
            return super.getEvent();
        }
    }

    @FunctionalInterface
    interface Source {
        Event next() throws IOException;
    }

    /** Records each anchored node's events (expanded) and replays them where an alias names it. */
    static final class Expander {
        private final int maxCollectionAliases;
        private final Map<String, List<Event>> anchors = new HashMap<>();
        private final List<Recording> open = new ArrayList<>();
        private final Deque<Event> replay = new ArrayDeque<>();
        private int collectionAliases;
        private int expanded;

        private static final class Recording {
            final String anchor;
            final List<Event> events = new ArrayList<>();
            int depth;

            Recording(String anchor) {
                this.anchor = anchor;
            }
        }

        Expander(int maxCollectionAliases) {
            this.maxCollectionAliases = maxCollectionAliases;
        }

        Event next(Source source) throws IOException {
            while (true) {
                boolean replayed = !replay.isEmpty();
                Event e = replayed ? replay.poll() : source.next();
                if (e == null) {
                    return null;
                }
                if (e instanceof DocumentStartEvent) {
                    // Anchors and limits are per document, as YAML scopes anchors.
                    anchors.clear();
                    open.clear();
                    collectionAliases = 0;
                    expanded = 0;
                }
                if (e instanceof AliasEvent alias) {
                    expand(alias);
                    continue;
                }
                record(e, replayed);
                return e;
            }
        }

        private void expand(AliasEvent alias) {
            String name = alias.getAnchor();
            List<Event> events = anchors.get(name);
            if (events == null) {
                boolean inside = open.stream().anyMatch(r -> r.anchor.equals(name));
                throw new ManifestException("alias *" + name
                        + (inside
                                ? " is inside the node it names: a recursive structure is no manifest"
                                : " names no anchor before it (&" + name + ")"));
            }
            if (events.size() > 1 && ++collectionAliases > maxCollectionAliases) {
                throw new ManifestException(
                        "more than " + maxCollectionAliases + " aliases of mappings or sequences in one"
                                + " document (SnakeYAML's maxAliasesForCollections): refused as a possible \"billion laughs\"");
            }
            if ((long) expanded + events.size() > MAX_EXPANDED_EVENTS) {
                throw new ManifestException("aliases expand the document by more than " + MAX_EXPANDED_EVENTS
                        + " nodes: refused as a possible \"billion laughs\"");
            }
            expanded += events.size();
            for (int i = events.size() - 1; i >= 0; i--) {
                replay.addFirst(events.get(i));
            }
        }

        /** Adds {@code e} to the anchors being recorded, and starts recording one it opens. */
        private void record(Event e, boolean replayed) {
            for (int i = open.size() - 1; i >= 0; i--) {
                Recording r = open.get(i);
                r.events.add(e);
                r.depth += depthChange(e);
                if (r.depth == 0) {
                    anchors.put(r.anchor, List.copyOf(r.events));
                    open.remove(i);
                }
            }
            // A replayed node's anchor was recorded where it was written.
            if (!replayed && e instanceof NodeEvent node && node.getAnchor() != null) {
                Recording r = new Recording(node.getAnchor());
                r.events.add(e);
                r.depth = depthChange(e);
                if (r.depth == 0) {
                    anchors.put(r.anchor, List.of(e));
                } else {
                    open.add(r);
                }
            }
        }

        private static int depthChange(Event e) {
            return e instanceof CollectionStartEvent ? 1 : e instanceof CollectionEndEvent ? -1 : 0;
        }
    }
}
