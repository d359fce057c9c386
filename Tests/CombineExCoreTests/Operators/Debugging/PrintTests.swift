import CombineExCore
import CombineExTesting
import Foundation
import Testing

/// A text stream that keeps what it is given, for checking `print`'s messages.
private final class LogStream: TextOutputStream, @unchecked Sendable {
  // @unchecked Sendable: `text` is guarded by its LockedBox; `onWrite` is set before use.
  private let text = LockedBox("")
  var onWrite: ((String) -> Void)?

  func write(_ string: String) {
    text.withLock { $0 += string }
    onWrite?(string)
  }

  /// Everything written so far, as lines.
  var lines: [String] {
    text.withLock { $0 }.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
      .map(String.init)
  }

  /// Everything written so far.
  var output: String { text.withLock { $0 } }
}

@Suite("print")
struct PrintTests {
  @Test("logs subscription, request, values and finish in Combine's format")
  func logsEvents() {
    let subject = PassthroughSubject<Int, Never>()
    let stream = LogStream()
    let cancellable = subject.print(to: stream).sink { _ in }
    subject.send(1)
    subject.send(2)
    subject.send(completion: .finished)
    #expect(stream.lines.count == 5)
    #expect(stream.lines.first?.hasPrefix("receive subscription: (") == true)
    #expect(
      Array(stream.lines.dropFirst()) == [
        "request unlimited", "receive value: (1)", "receive value: (2)", "receive finished",
      ])
    withExtendedLifetime(cancellable) {}
  }

  @Test("the subscription is described as the upstream describes it")
  func describesSubscription() {
    let stream = LogStream()
    let recorder = Just(1).print(to: stream).record()
    #expect(stream.lines.first == "receive subscription: (Just)")
    #expect(recorder.values == [1])
  }

  @Test("every line starts with the prefix and a colon")
  func prefix() {
    let stream = LogStream()
    let recorder = Just(5).print("numbers", to: stream).record()
    #expect(
      stream.lines == [
        "numbers: receive subscription: (Just)", "numbers: request unlimited",
        "numbers: receive value: (5)", "numbers: receive finished",
      ])
    #expect(recorder.values == [5])
  }

  @Test("each message is written as Combine writes it: an empty string, the message, a newline")
  func writesMessageThenNewline() {
    let stream = LogStream()
    let writes = LockedBox<[String]>([])
    stream.onWrite = { string in writes.withLock { $0.append(string) } }
    let recorder = Just(1).print(to: stream).record(initialDemand: .none)
    recorder.cancel()
    #expect(
      writes.withLock { $0 } == [
        "", "receive subscription: (Just)", "\n", "", "receive cancel", "\n",
      ])
  }

  @Test("logs the upstream's failure")
  func logsFailure() {
    let stream = LogStream()
    let recorder = Fail<Int, TestError>(error: TestError(3)).print(to: stream).record()
    #expect(stream.lines.last == "receive error: (TestError(3))")
    #expect(recorder.receivedCompletion == .failure(TestError(3)))
  }

  @Test("logs finite requests and synchronous demand")
  func logsDemand() {
    let stream = LogStream()
    let upstream = ScriptedUpstream<Int, Never>()
    let recorder = upstream.print(to: stream).record(
      initialDemand: .max(2), demandAfterEachValue: .max(1))
    upstream.send(1)
    recorder.request(.unlimited)
    #expect(
      stream.lines.dropFirst() == [
        "request max: (2)", "receive value: (1)", "request max: (1) (synchronous)",
        "request unlimited",
      ])
  }

  @Test("logs unlimited synchronous demand")
  func logsUnlimitedSynchronousDemand() {
    let stream = LogStream()
    let upstream = ScriptedUpstream<Int, Never>()
    _ = upstream.print(to: stream).record(
      initialDemand: .max(1), demandAfterEachValue: .unlimited)
    #expect(upstream.send(1) == .unlimited)
    #expect(stream.lines.last == "request unlimited (synchronous)")
  }

  @Test("no demand returned from receive(_:), no synchronous line")
  func noSynchronousLineForNoDemand() {
    let stream = LogStream()
    let upstream = ScriptedUpstream<Int, Never>()
    _ = upstream.print(to: stream).record()
    upstream.send(1)
    #expect(stream.lines.last == "receive value: (1)")
  }

  @Test("logs the cancel, which reaches the upstream; nothing is delivered after it")
  func logsCancel() {
    let stream = LogStream()
    let upstream = ScriptedUpstream<Int, Never>()
    let recorder = upstream.print(to: stream).record()
    recorder.cancel()
    upstream.send(1)
    upstream.send(completion: .finished)
    #expect(stream.lines.last == "receive cancel")
    #expect(upstream.cancels == 1)
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion == nil)
  }

  @Test("honours demand: one value per request")
  func honoursDemand() {
    let recorder = [1, 2, 3].publisher.eraseToAnyPublisher().print(to: LogStream()).record(
      initialDemand: .max(1))
    #expect(recorder.values == [1])
    recorder.request(.max(1))
    #expect(recorder.values == [1, 2])
  }

  @Test("an empty upstream finishes")
  func emptyUpstream() {
    let stream = LogStream()
    let recorder = Empty<Int, Never>().print(to: stream).record()
    #expect(recorder.receivedCompletion.isFinished)
    #expect(stream.lines.last == "receive finished")
  }

  @Test("cancel frees the pipeline")
  func cancelFreesPipeline() {
    weak var weakOwner: TestOwner?
    let subject = PassthroughSubject<Int, Never>()
    var cancellable: AnyCancellable?
    do {
      let owner = TestOwner()
      weakOwner = owner
      cancellable = subject.print(to: LogStream()).sink { owner.values.append($0) }
    }
    #expect(weakOwner != nil)
    cancellable?.cancel()
    #expect(weakOwner == nil)
  }

  @Test("a stream that calls back into the pipeline logs in order, without deadlock")
  func reentrantStream() {
    let stream = LogStream()
    let upstream = ScriptedUpstream<Int, Never>()
    let recorder = upstream.print(to: stream).record(initialDemand: .max(1))
    stream.onWrite = { string in
      if string == "receive value: (1)" { recorder.request(.max(1)) }
    }
    upstream.send(1)
    #expect(stream.lines.suffix(2) == ["receive value: (1)", "request max: (1)"])
    #expect(upstream.requests == [.max(1), .max(1)])
  }

  @Test("without a stream, messages go to standard output")
  func standardOutput() async {
    let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
      _ = Just(7).print("stdout").sink { _ in }
    }
    let output = String(decoding: result?.standardOutputContent ?? [], as: UTF8.self)
    #expect(output.contains("stdout: receive value: (7)\nstdout: receive finished\n"))
  }

  @Test("stress: messages from many threads are written whole, one per line")
  func stressConcurrentLogging() async {
    let stream = LogStream()
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.print("p", to: stream).record(initialDemand: .none)
    await concurrentPerform(200) { index in
      if index.isMultiple(of: 2) {
        subject.send(index)
      } else {
        recorder.request(.max(1))
      }
    }
    let lines = stream.lines
    #expect(lines.count == 1 + 100 + recorder.values.count)
    #expect(lines.allSatisfy { $0.hasPrefix("p: receive ") || $0.hasPrefix("p: request max: (1)") })
  }

  @Test("logs every upstream subscription, also one it rejects and cancels, as Combine does")
  func logsRejectedSubscriptions() {
    let upstream = LateSubscriptionUpstream<Int, Never>()
    let stream = LogStream()
    let recorder = upstream.print(to: stream).record(initialDemand: .none)
    upstream.sendSubscription()
    upstream.sendSubscription()
    recorder.cancel()
    upstream.sendSubscription()
    #expect(upstream.cancelCount == 3)
    #expect(stream.lines.count == 4)
    #expect(stream.lines.filter { $0.hasPrefix("receive subscription: (") }.count == 3)
    #expect(stream.lines[2] == "receive cancel")
  }
}
