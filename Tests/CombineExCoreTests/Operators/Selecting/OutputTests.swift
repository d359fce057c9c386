import CombineExCore
import CombineExTesting
import Testing

@Suite("output(at:) and output(in:)")
struct OutputTests {
  @Test("output(at:) publishes the element at the index; the next one finishes and cancels")
  func outputAt() {
    let subject = PassthroughSubject<String, Never>()
    var cancelled = false
    let recorder = subject.handleCancelForTest { cancelled = true }.output(at: 2).record()
    subject.send("a")
    subject.send("b")
    #expect(recorder.values.isEmpty)
    subject.send("c")
    #expect(recorder.values == ["c"])
    // As in Combine: the end of the range is known only from the next element.
    #expect(recorder.receivedCompletion == nil)
    #expect(!cancelled)
    subject.send("d")
    #expect(recorder.values == ["c"])
    #expect(recorder.receivedCompletion.isFinished)
    #expect(cancelled)
  }

  @Test("output(in:) publishes the elements whose indices are in the range")
  func outputInRange() {
    let numbers = [10, 20, 30, 40, 50].publisher
    #expect(numbers.output(in: 1..<3).record().values == [20, 30])
    #expect(numbers.output(in: 1...3).record().values == [20, 30, 40])
    #expect(numbers.output(in: 3...).record().values == [40, 50])
    #expect(numbers.output(in: ..<2).record().values == [10, 20])
    #expect(numbers.output(in: ...0).record().values == [10])
  }

  @Test("range expressions become the CountableRange Combine stores")
  func storedRange() {
    let upstream = Empty<Int, Never>()
    #expect(upstream.output(at: 4).range == 4..<5)
    #expect(upstream.output(in: ..<8).range == 0..<8)
    #expect(upstream.output(in: ...8).range == 0..<9)
    #expect(upstream.output(in: 8...).range == 8..<Int.max)
    #expect(upstream.output(in: 4...5).range == 4..<6)
    #expect(upstream.prefix(3).range == 0..<3)
  }

  @Test("prefix(_:) publishes the first elements; the next one finishes and cancels")
  func prefix() {
    let subject = PassthroughSubject<Int, Never>()
    var cancelled = false
    let recorder = subject.handleCancelForTest { cancelled = true }.prefix(2).record()
    subject.send(1)
    subject.send(2)
    #expect(recorder.values == [1, 2])
    #expect(recorder.receivedCompletion == nil)
    subject.send(3)
    #expect(recorder.values == [1, 2])
    #expect(recorder.receivedCompletion.isFinished)
    #expect(cancelled)
  }

  @Test("an empty range finishes at the first element without publishing it")
  func emptyRange() {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.prefix(0).record()
    #expect(recorder.receivedCompletion == nil)
    subject.send(1)
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("an upstream that finishes before the range finishes without those values")
  func upstreamFinishesFirst() {
    let recorder = [1, 2].publisher.eraseToAnyPublisher().output(in: 1..<5).record()
    #expect(recorder.values == [2])
    #expect(recorder.receivedCompletion.isFinished)
    let empty = Empty<Int, Never>().output(at: 0).record()
    #expect(empty.values.isEmpty)
    #expect(empty.receivedCompletion.isFinished)
  }

  @Test("the upstream's failure is passed on")
  func upstreamFailure() {
    let subject = PassthroughSubject<Int, TestError>()
    let recorder = subject.output(in: 0..<5).record()
    subject.send(1)
    subject.send(completion: .failure(TestError(1)))
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion == .failure(TestError(1)))
  }

  @Test("demand passes through, and skipped elements give their demand back")
  func demand() {
    let upstream = ManualUpstream<Int, Never>()
    let recorder = upstream.output(in: 2..<4).record(initialDemand: .none)
    #expect(upstream.requests.isEmpty)
    recorder.request(.max(1))
    #expect(upstream.requests == [.max(1)])
    #expect(upstream.send(0) == .max(1))
    #expect(upstream.send(1) == .max(1))
    #expect(upstream.send(2) == .none)
    #expect(recorder.values == [2])
  }

  @Test("honours demand end to end: one value per request")
  func honoursDemand() {
    let recorder = Array(0..<10).publisher.output(in: 3..<6).record(initialDemand: .max(1))
    #expect(recorder.values == [3])
    recorder.request(.max(1))
    #expect(recorder.values == [3, 4])
    #expect(recorder.receivedCompletion == nil)
    recorder.request(.max(1))
    #expect(recorder.values == [3, 4, 5])
    // A collection's `output(in:)` is fused into a sequence of the range's elements, as in
    // Combine, so it finishes with the last one.
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("the element after the range needs demand before it finishes the operator")
  func finishingElementNeedsDemand() {
    let upstream = ManualUpstream<Int, Never>()
    let recorder = upstream.prefix(1).record(initialDemand: .max(1))
    #expect(upstream.send(7) == .none)
    #expect(recorder.values == [7])
    #expect(recorder.receivedCompletion == nil)
    recorder.request(.max(1))
    #expect(upstream.requests == [.max(1), .max(1)])
    #expect(upstream.send(8) == .none)
    #expect(recorder.values == [7])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("a send from inside the subscriber after the last element delivers nothing more")
  func reentrantSend() {
    let subject = PassthroughSubject<Int, Never>()
    var received: [Int] = []
    let cancellable = subject.prefix(1).sink { value in
      received.append(value)
      subject.send(value + 1)
    }
    subject.send(1)
    #expect(received == [1])
    withExtendedLifetime(cancellable) {}
  }

  @Test("Output is Equatable when its upstream is")
  func equatable() {
    // Built directly: `Just.output(at:)` is fused into an `Optional.Publisher`, as in Combine.
    #expect(
      Publishers.Output(upstream: Just(1), range: 0..<1)
        == Publishers.Output(upstream: Just(1), range: 0..<1))
    #expect(
      Publishers.Output(upstream: Just(1), range: 0..<1)
        != Publishers.Output(upstream: Just(1), range: 0..<2))
  }

  @Test("a negative index is an API violation")
  func negativeIndexTraps() async {
    await #expect(processExitsWith: .failure) {
      _ = Publishers.Output(upstream: Just(1), range: -1..<2)
    }
  }

  @Test("cancel reaches the upstream, stops delivery and frees the pipeline")
  func cancellation() {
    expectCancellationRules { $0.output(in: 0..<10) }
  }
}
