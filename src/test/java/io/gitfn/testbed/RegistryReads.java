package io.gitfn.testbed;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gitfn.registry.ImageName;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.StreamSupport;
import java.util.zip.GZIPInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;

/** Reads what a test registry (plain HTTP, no credentials) holds, as a test checks a pushed image. */
public final class RegistryReads {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private RegistryReads() {
  }

  /** The OCI manifest of {@code image}, asserting that the registry has it. */
  public static JsonNode manifest(ImageName image) throws IOException, InterruptedException {
    return JSON.readTree(manifestResponse(image).body());
  }

  /** The digest the registry gives {@code image}'s manifest. */
  public static String digest(ImageName image) throws IOException, InterruptedException {
    return manifestResponse(image).headers().firstValue("Docker-Content-Digest").orElseThrow();
  }

  public static JsonNode config(ImageName image, JsonNode manifest) throws IOException, InterruptedException {
    return JSON.readTree(blob(image, manifest.path("config").path("digest").asText()));
  }

  public static List<String> layerDigests(JsonNode manifest) {
    return StreamSupport.stream(manifest.path("layers").spliterator(), false)
        .map(layer -> layer.path("digest").asText()).toList();
  }

  public static byte[] blob(ImageName image, String digest) throws IOException, InterruptedException {
    HttpResponse<byte[]> response = HTTP.send(HttpRequest.newBuilder(
            URI.create("http://" + image.registry() + "/v2/" + image.repository() + "/blobs/" + digest)).build(),
        HttpResponse.BodyHandlers.ofByteArray());
    assertThat(response.statusCode()).as("blob %s of %s", digest, image).isEqualTo(200);
    return response.body();
  }

  /** A gzip-compressed layer's entries: name, then {@code -> target} for a link. */
  public static List<String> layerEntries(byte[] layer) throws IOException {
    List<String> names = new ArrayList<>();
    try (TarArchiveInputStream tar = new TarArchiveInputStream(new GZIPInputStream(new ByteArrayInputStream(layer)),
        StandardCharsets.UTF_8.name())) {
      for (TarArchiveEntry entry = tar.getNextEntry(); entry != null; entry = tar.getNextEntry()) {
        names.add(entry.getName() + (entry.isSymbolicLink() ? " -> " + entry.getLinkName() : ""));
      }
    }
    return names;
  }

  private static HttpResponse<byte[]> manifestResponse(ImageName image) throws IOException, InterruptedException {
    HttpResponse<byte[]> response = HTTP.send(HttpRequest.newBuilder(
            URI.create("http://" + image.registry() + "/v2/" + image.repository() + "/manifests/" + image.reference()))
        .header("Accept", "application/vnd.oci.image.manifest.v1+json").build(),
        HttpResponse.BodyHandlers.ofByteArray());
    assertThat(response.statusCode()).as("manifest of %s", image).isEqualTo(200);
    return response;
  }
}
