/* The real-node tests' image: a static program with two uses.
 *
 *   hello serve PORT              answers every HTTP request with "hello from <hostname>" and logs
 *                                 "<method> <path> from <peer>" on stdout, one line a request
 *   hello connect HOST PORT ...   tries a TCP connection to each HOST PORT pair, 3 s at most each, and prints
 *                                 "HOST:PORT connected", "refused", "timed out" or the error; a HOST that is
 *                                 not an IPv4 address is looked up first (the Pod's resolv.conf: cluster DNS),
 *                                 and one that does not resolve prints "HOST:PORT not resolved in N ms: why"
 *
 * getaddrinfo works in a static program with nothing beside it: since glibc 2.34 its "dns" and "files" lookups
 * are part of libc itself, not modules it loads (gcc's warning about the shared libraries does not apply to them).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static void stop(int signal) { _exit(0); }

static int serve(int port) {
  char host[256] = "?";
  gethostname(host, sizeof host - 1);
  int server = socket(AF_INET, SOCK_STREAM, 0);
  int on = 1;
  setsockopt(server, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
  struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons(port), .sin_addr.s_addr = INADDR_ANY};
  if (bind(server, (struct sockaddr *)&address, sizeof address) != 0 || listen(server, 64) != 0) {
    perror("hello: cannot listen");
    return 1;
  }
  printf("listening on %d\n", port);
  fflush(stdout);
  for (;;) {
    struct sockaddr_in peer;
    socklen_t length = sizeof peer;
    int connection = accept(server, (struct sockaddr *)&peer, &length);
    if (connection < 0) {
      continue;
    }
    char request[4096] = {0};
    ssize_t got = read(connection, request, sizeof request - 1);
    char method[16] = "?", path[1024] = "?";
    if (got > 0) {
      sscanf(request, "%15s %1023s", method, path);
    }
    printf("%s %s from %s\n", method, path, inet_ntoa(peer.sin_addr));
    fflush(stdout);
    char body[512], response[1024];
    int body_length = snprintf(body, sizeof body, "hello from %s\n", host);
    int response_length = snprintf(response, sizeof response,
        "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s",
        body_length, body);
    write(connection, response, response_length);
    close(connection);
  }
}

static void try_connect(const char *host, int port) {
  struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons(port)};
  if (inet_pton(AF_INET, host, &address.sin_addr) != 1) {
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    struct addrinfo hints = {.ai_family = AF_INET, .ai_socktype = SOCK_STREAM}, *found;
    int error = getaddrinfo(host, NULL, &hints, &found);
    clock_gettime(CLOCK_MONOTONIC, &end);
    if (error != 0) {
      long ms = (end.tv_sec - start.tv_sec) * 1000 + (end.tv_nsec - start.tv_nsec) / 1000000;
      printf("%s:%d not resolved in %ld ms: %s\n", host, port, ms, gai_strerror(error));
      fflush(stdout);
      return;
    }
    address.sin_addr = ((struct sockaddr_in *)found->ai_addr)->sin_addr;
    freeaddrinfo(found);
  }
  int s = socket(AF_INET, SOCK_STREAM, 0);
  fcntl(s, F_SETFL, O_NONBLOCK);
  const char *result = "connected";
  if (connect(s, (struct sockaddr *)&address, sizeof address) != 0) {
    if (errno != EINPROGRESS) {
      result = errno == ECONNREFUSED ? "refused" : strerror(errno);
    } else {
      struct pollfd wait = {.fd = s, .events = POLLOUT};
      if (poll(&wait, 1, 3000) == 0) {
        result = "timed out";
      } else {
        int error = 0;
        socklen_t length = sizeof error;
        getsockopt(s, SOL_SOCKET, SO_ERROR, &error, &length);
        result = error == 0 ? "connected" : error == ECONNREFUSED ? "refused" : strerror(error);
      }
    }
  }
  printf("%s:%d %s\n", host, port, result);
  fflush(stdout);
  close(s);
}

int main(int argc, char **argv) {
  signal(SIGTERM, stop);
  signal(SIGINT, stop);
  signal(SIGPIPE, SIG_IGN);
  if (argc == 3 && strcmp(argv[1], "serve") == 0) {
    return serve(atoi(argv[2]));
  }
  if (argc >= 4 && argc % 2 == 0 && strcmp(argv[1], "connect") == 0) {
    for (int i = 2; i < argc; i += 2) {
      try_connect(argv[i], atoi(argv[i + 1]));
    }
    return 0;
  }
  fprintf(stderr, "usage: hello serve PORT | hello connect HOST PORT [HOST PORT...]\n");
  return 2;
}
