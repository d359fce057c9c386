import CombineExCore
import CombineExTesting
import Testing

@Suite("tryCompactMap")
struct TryCompactMapTests {
  @Test("publishes the non-nil results and finishes with the upstream")
  func publishesNonNilResults() {
    let recorder = ["1", "x", "3"].publisher.eraseToAnyPublisher().tryCompactMap { Int($0) }
      .record()
    #expect(recorder.values == [1, 3])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("a thrown error fails the publisher and cancels the upstream")
  func throwingCancelsUpstream() {
    let subject = PassthroughSubject<Int, Never>()
    var cancelled = false
    let recorder =
      subject
      .handleCancelForTest { cancelled = true }
      .tryCompactMap { value -> Int? in
        if value == 2 { throw TestError(2) }
        return value
      }
      .record()
    subject.send(1)
    subject.send(2)
    subject.send(3)
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion?.failure as? TestError == TestError(2))
    #expect(recorder.completionCount == 1)
    #expect(cancelled)
  }

  @Test("passes the upstream's failure on")
  func upstreamFailure() {
    let recorder = Fail<Int, TestError>(error: TestError(7)).tryCompactMap { $0 }.record()
    #expect(recorder.receivedCompletion?.failure as? TestError == TestError(7))
  }

  @Test("an empty upstream finishes without values")
  func emptyUpstream() {
    let recorder = Empty<Int, Never>().tryCompactMap { $0 }.record()
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("a nil result gives its unit of demand back to the upstream")
  func nilGivesDemandBack() {
    let upstream = ManualUpstream<Int, Never>()
    let recorder = upstream.tryCompactMap { $0 > 0 ? $0 : nil }.record(initialDemand: .max(1))
    #expect(upstream.requests == [.max(1)])
    #expect(upstream.send(0) == .max(1))
    #expect(upstream.send(5) == .none)
    #expect(recorder.values == [5])
  }

  @Test("honours demand: .none at first, then one value per request")
  func honoursDemand() {
    let recorder = [1, 2, 3].publisher.eraseToAnyPublisher().tryCompactMap { $0 }.record(
      initialDemand: .none)
    #expect(recorder.values.isEmpty)
    recorder.request(.max(1))
    #expect(recorder.values == [1])
    recorder.request(.max(1))
    #expect(recorder.values == [1, 2])
  }

  @Test("TryCompactMap.compactMap fuses into one TryCompactMap whose closure may throw")
  func fusion() {
    let fused: Publishers.TryCompactMap<Publishers.Sequence<[String], Never>, String> =
      ["1", "x", "30"].publisher
      .tryCompactMap { Int($0) }
      .compactMap { value -> String? in
        if value > 10 { throw TestError(value) }
        return "\(value)"
      }
    let recorder = fused.record()
    #expect(recorder.values == ["1"])
    #expect(recorder.receivedCompletion?.failure as? TestError == TestError(30))
  }

  @Test("cancel reaches the upstream, stops delivery and frees the pipeline")
  func cancellation() {
    expectCancellationRules { $0.tryCompactMap { $0 } }
  }
}
