package io.lahar.emulator;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;

/**
 * The JSON of a deleted object as its DELETED event carries it, made from the stored text: the
 * text with its {@code metadata.resourceVersion} replaced by the deletion's. Where the stored text
 * is its tree written out by the store's mapper, this is what writing out the tree with the new
 * version gives (the version keeps its place among the fields), at the cost of reading the text up
 * to that field, not of writing the whole object again.
 */
final class DeletedJson {

    private DeletedJson() {}

    /**
     * {@code json} with the string value of its top-level {@code metadata.resourceVersion} replaced
     * by {@code version}; null when it has none (or one of another kind), or is not an object.
     */
    static String withVersion(String json, String version) {
        try (JsonParser parser = Serialization.jsonMapper().getFactory().createParser(json)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                boolean metadata = "metadata".equals(parser.currentName());
                JsonToken value = parser.nextToken();
                if (!metadata) {
                    parser.skipChildren();
                    continue;
                }
                if (value != JsonToken.START_OBJECT) {
                    return null;
                }
                while (parser.nextToken() == JsonToken.FIELD_NAME) {
                    boolean resourceVersion = "resourceVersion".equals(parser.currentName());
                    JsonToken field = parser.nextToken();
                    if (!resourceVersion) {
                        parser.skipChildren();
                        continue;
                    }
                    if (field != JsonToken.VALUE_STRING) {
                        return null;
                    }
                    int start = (int) parser.currentTokenLocation().getCharOffset();
                    parser.getText(); // reads the string to its closing quote
                    int end = (int) parser.currentLocation().getCharOffset();
                    return json.substring(0, start) + '"' + version + '"' + json.substring(end);
                }
                return null;
            }
            return null;
        } catch (IOException e) {
            return null;
        }
    }
}
