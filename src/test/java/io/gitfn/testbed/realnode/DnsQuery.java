package io.gitfn.testbed.realnode;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * One DNS question for a name's IPv4 addresses, over UDP to a given server: the JVM's own resolver asks the host's
 * servers, never the node's, and no DNS tool is needed on the machine for this one question.
 *
 * @param rcode the answer's response code: 0 for an answer, 3 (NXDOMAIN) for a name that does not exist
 * @param addresses the A records in the answer
 */
record DnsQuery(int rcode, List<String> addresses) {

  static final int NXDOMAIN = 3;
  private static final int A = 1;
  private static final int IN = 1;

  /** Asks {@code server} on port 53 for the A records of {@code name}, waiting {@code timeoutMillis} at most. */
  static DnsQuery ask(String server, String name, int timeoutMillis) throws IOException {
    int id = ThreadLocalRandom.current().nextInt(1 << 16);
    ByteArrayOutputStream question = new ByteArrayOutputStream();
    // Header: the id, recursion desired, one question.
    question.writeBytes(new byte[] {(byte) (id >> 8), (byte) id, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0});
    for (String label : name.split("\\.")) {
      byte[] bytes = label.getBytes(StandardCharsets.US_ASCII);
      question.write(bytes.length);
      question.writeBytes(bytes);
    }
    question.writeBytes(new byte[] {0, 0, A, 0, IN});
    try (DatagramSocket socket = new DatagramSocket()) {
      socket.setSoTimeout(timeoutMillis);
      byte[] sent = question.toByteArray();
      socket.send(new DatagramPacket(sent, sent.length, new InetSocketAddress(server, 53)));
      DatagramPacket received = new DatagramPacket(new byte[1232], 1232);
      do {
        socket.receive(received);
      } while (received.getLength() < 12 || (ByteBuffer.wrap(received.getData()).getShort(0) & 0xffff) != id);
      return parse(ByteBuffer.wrap(received.getData(), 0, received.getLength()));
    }
  }

  private static DnsQuery parse(ByteBuffer answer) throws IOException {
    int rcode = answer.getShort(2) & 0xf;
    int questions = answer.getShort(4) & 0xffff;
    int records = answer.getShort(6) & 0xffff;
    answer.position(12);
    for (int i = 0; i < questions; i++) {
      skipName(answer);
      answer.position(answer.position() + 4); // type and class
    }
    List<String> addresses = new ArrayList<>();
    for (int i = 0; i < records; i++) {
      skipName(answer);
      int type = answer.getShort() & 0xffff;
      answer.position(answer.position() + 6); // class and TTL
      byte[] data = new byte[answer.getShort() & 0xffff];
      answer.get(data);
      if (type == A && data.length == 4) {
        addresses.add(InetAddress.getByAddress(data).getHostAddress());
      }
    }
    return new DnsQuery(rcode, addresses);
  }

  /** Skips a name: labels up to the empty one, or up to a compression pointer (two bytes, top bits set). */
  private static void skipName(ByteBuffer answer) {
    for (int length = answer.get() & 0xff; length != 0; length = answer.get() & 0xff) {
      if ((length & 0xc0) == 0xc0) {
        answer.get();
        return;
      }
      answer.position(answer.position() + length);
    }
  }
}
