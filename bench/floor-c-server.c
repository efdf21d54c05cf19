/*
 * A control for `bench/floor.ts` (REFS=c): the cheapest HTTP answer this machine can give, an epoll
 * loop in C that answers every read on a keep-alive connection with a fixed 200. It parses nothing;
 * the bench sends each push (headers and body) in one write and waits for its answer, so one read is
 * one request. What it costs per push is what the kernel and the hardware charge for waking a process
 * and moving the bytes over loopback; whatever a Node.js server costs above it is Node's own work.
 * Built by floor.ts with `cc -O2`; prints `listening <port>` once it accepts connections.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

static const char answer[] =
    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 12\r\n"
    "Connection: keep-alive\r\n\r\n{\"code\":200}";

int main(void) {
  int one = 1;
  int listener = socket(AF_INET, SOCK_STREAM, 0);
  setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  struct sockaddr_in address = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
  socklen_t length = sizeof address;
  if (bind(listener, (struct sockaddr *)&address, length) || listen(listener, 128) ||
      getsockname(listener, (struct sockaddr *)&address, &length)) {
    perror("floor-c-server");
    return 1;
  }
  printf("listening %d\n", ntohs(address.sin_port));
  fflush(stdout);

  int poll = epoll_create1(0);
  struct epoll_event event = {.events = EPOLLIN, .data.fd = listener};
  epoll_ctl(poll, EPOLL_CTL_ADD, listener, &event);
  static char buffer[65536];
  for (;;) {
    struct epoll_event ready[64];
    int count = epoll_wait(poll, ready, 64, -1);
    for (int i = 0; i < count; i++) {
      int fd = ready[i].data.fd;
      if (fd == listener) {
        int connection = accept(listener, NULL, NULL);
        if (connection < 0) continue;
        setsockopt(connection, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        struct epoll_event added = {.events = EPOLLIN, .data.fd = connection};
        epoll_ctl(poll, EPOLL_CTL_ADD, connection, &added);
      } else if (read(fd, buffer, sizeof buffer) <= 0) {
        close(fd);
      } else if (write(fd, answer, sizeof answer - 1) < 0) {
        close(fd);
      }
    }
  }
}
