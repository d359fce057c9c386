import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A tiny HTTP/1.1 server on 127.0.0.1 and an ephemeral port, for the data task publisher's
/// tests: no dependency, threads of its own (never the cooperative pool), and every wait in it
/// bounded, so that it stops by itself even if a test forgets to stop it.
///
/// Routes (`GET` only; each connection serves one request and is closed):
/// - `/status/<code>`: answers `<code>` with the body `status <code>`;
/// - `/hang`: reads the request, answers nothing, and reports when the client drops the
///   connection (``hangingConnectionDropped``);
/// - anything else: `200` with the body `hello from <path>`.
final class LoopbackHTTPServer: @unchecked Sendable {
  // @unchecked Sendable: `listener` and `port` are set once in `init`; everything that changes
  // is in `state` (a `LockedBox`), and the semaphores are thread-safe.
  struct State {
    var paths: [String] = []
    var stopped = false
  }

  /// The port the server listens on.
  let port: UInt16
  private let listener: Int32
  private let state = LockedBox(State())
  /// Signalled once per `/hang` request, when the server has read it.
  let hangingRequestArrived = DispatchSemaphore(value: 0)
  /// Signalled once per `/hang` connection that the client closed.
  let hangingConnectionDropped = DispatchSemaphore(value: 0)

  /// How long the server accepts connections if nobody stops it, in milliseconds.
  static let serverLifetime: Int32 = 300_000

  /// The longest any connection is kept (a hanging one included), in milliseconds.
  static let connectionLifetime: Int32 = 30_000

  /// Starts listening; throws if the socket cannot be set up.
  init() throws {
    let (socket, port) = try Self.boundSocket()
    guard listen(socket, 64) == 0 else {
      close(socket)
      throw POSIXError(.init(rawValue: errno) ?? .EIO)
    }
    listener = socket
    self.port = port
    let thread = Thread { [self] in acceptLoop() }
    thread.start()
  }

  /// A URL on this server.
  func url(_ path: String) -> URL {
    URL(string: "http://127.0.0.1:\(port)\(path)")!
  }

  /// The paths requested so far, in the order their requests were read.
  var requestedPaths: [String] { state.withLock { $0.paths } }

  /// Stops accepting connections and ends the hanging ones (within a tenth of a second).
  func stop() {
    state.withLock { $0.stopped = true }
  }

  private var isStopped: Bool { state.withLock { $0.stopped } }

  /// A TCP socket bound to 127.0.0.1 and an ephemeral port (not listening), and that port.
  /// A bound socket that does not listen refuses connections: see ``RefusingPort``.
  static func boundSocket() throws -> (Int32, UInt16) {
    #if canImport(Glibc)
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let fd = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard fd >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
    }
    var actual = sockaddr_in()
    var actualLength = length
    let named = withUnsafeMutablePointer(to: &actual) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &actualLength) }
    }
    guard bound == 0, named == 0 else {
      close(fd)
      throw POSIXError(.init(rawValue: errno) ?? .EIO)
    }
    return (fd, UInt16(bigEndian: actual.sin_port))
  }

  /// Waits (a tenth of a second at a time, so that `stop()` is seen) until `fd` is readable.
  /// Returns `false` if the server stopped or `deadline` (milliseconds left) ran out.
  private func waitReadable(_ fd: Int32, milliseconds: inout Int32) -> Bool {
    while milliseconds > 0, !isStopped {
      var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      let slice = min(milliseconds, 100)
      let ready = poll(&entry, 1, Int32(slice))
      milliseconds -= slice
      if ready > 0 { return true }
      if ready < 0, errno != EINTR { return false }
    }
    return false
  }

  private func acceptLoop() {
    defer { close(listener) }
    var budget = Self.serverLifetime
    while true {
      guard waitReadable(listener, milliseconds: &budget) else { return }
      let connection = accept(listener, nil, nil)
      guard connection >= 0 else { continue }
      let thread = Thread { [self] in serve(connection) }
      thread.start()
    }
  }

  /// Reads one request, answers it (or hangs), and closes the connection.
  private func serve(_ connection: Int32) {
    defer { close(connection) }
    var budget = Self.connectionLifetime
    var request = [UInt8]()
    var buffer = [UInt8](repeating: 0, count: 4096)
    let end: [UInt8] = Array("\r\n\r\n".utf8)
    while !request.ends(with: end) {
      guard waitReadable(connection, milliseconds: &budget) else { return }
      let count = read(connection, &buffer, buffer.count)
      guard count > 0 else { return }
      request += buffer[0..<count]
      if request.count > 65_536 { return }
    }
    let requestLine =
      String(decoding: request, as: UTF8.self)
      .split(separator: "\r\n", maxSplits: 1).first ?? ""
    let parts = requestLine.split(separator: " ")
    let path = parts.count >= 2 ? String(parts[1]) : "/"
    state.withLock { $0.paths.append(path) }

    if path == "/hang" {
      hangingRequestArrived.signal()
      // Wait for the client to close its end: a read of 0 bytes (or an error) then.
      while waitReadable(connection, milliseconds: &budget) {
        if read(connection, &buffer, buffer.count) <= 0 {
          hangingConnectionDropped.signal()
          return
        }
      }
      return
    }
    var status = 200
    var body = "hello from \(path)"
    if path.hasPrefix("/status/"), let code = Int(path.dropFirst("/status/".count)) {
      status = code
      body = "status \(code)"
    }
    let response =
      "HTTP/1.1 \(status) \(status == 200 ? "OK" : "Status \(status)")\r\n"
      + "Content-Type: text/plain\r\nContent-Length: \(body.utf8.count)\r\n"
      + "Connection: close\r\n\r\n\(body)"
    let bytes = Array(response.utf8)
    var sent = 0
    while sent < bytes.count {
      let count = bytes[sent...].withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
      guard count > 0 else { return }
      sent += count
    }
    shutdown(connection, Int32(SHUT_WR))
    // Let the client read everything before the close (it closes first, or the budget ends).
    while waitReadable(connection, milliseconds: &budget) {
      if read(connection, &buffer, buffer.count) <= 0 { return }
    }
  }
}

/// A port on 127.0.0.1 that refuses connections: bound (so no one else takes it) but not
/// listening, for as long as the value lives.
final class RefusingPort: @unchecked Sendable {
  // @unchecked Sendable: both properties are set once in `init`.
  let port: UInt16
  private let socket: Int32

  init() throws {
    (socket, port) = try LoopbackHTTPServer.boundSocket()
  }

  deinit {
    close(socket)
  }

  /// A URL on this port.
  func url(_ path: String) -> URL {
    URL(string: "http://127.0.0.1:\(port)\(path)")!
  }
}

extension Array where Element: Equatable {
  fileprivate func ends(with suffix: [Element]) -> Bool {
    count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
  }
}
