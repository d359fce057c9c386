import CombineExCore
import CombineExTesting
import Testing

/// A value whose order ignores its tag, to see which of several equal elements is kept.
private struct Tagged: Equatable {
  let rank: Int
  let tag: String
}

@Suite("min and max")
struct ComparisonTests {
  @Test("min() publishes the smallest element when the upstream finishes")
  func minimum() {
    let recorder = [3, 1, 2].publisher.eraseToAnyPublisher().min().record()
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("max() publishes the greatest element when the upstream finishes")
  func maximum() {
    let recorder = [3, 1, 4, 2].publisher.eraseToAnyPublisher().max().record()
    #expect(recorder.values == [4])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("min(by:) and max(by:) use the ordering closure")
  func byClosure() {
    let words = ["pear", "fig", "banana"].publisher
    #expect(words.min { $0.count < $1.count }.record().values == ["fig"])
    #expect(words.max { $0.count < $1.count }.record().values == ["banana"])
  }

  @Test("of several equal extremes, the first one received is kept")
  func keepsFirstOfEquals() {
    let elements = [
      Tagged(rank: 1, tag: "a"), Tagged(rank: 3, tag: "b"), Tagged(rank: 1, tag: "c"),
      Tagged(rank: 3, tag: "d"),
    ]
    #expect(
      elements.publisher.min { $0.rank < $1.rank }.record().values == [Tagged(rank: 1, tag: "a")])
    #expect(
      elements.publisher.max { $0.rank < $1.rank }.record().values == [Tagged(rank: 3, tag: "b")])
  }

  @Test("an empty upstream finishes without a value")
  func emptyUpstream() {
    let minimum = Empty<Int, Never>().min().record()
    let maximum = Empty<Int, Never>().max().record()
    #expect(minimum.values.isEmpty)
    #expect(minimum.receivedCompletion.isFinished)
    #expect(maximum.values.isEmpty)
    #expect(maximum.receivedCompletion.isFinished)
  }

  @Test("the upstream's failure is passed on without a value")
  func upstreamFailure() {
    let subject = PassthroughSubject<Int, TestError>()
    let recorder = subject.max().record()
    subject.send(5)
    subject.send(completion: .failure(TestError(5)))
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion == .failure(TestError(5)))
  }

  @Test("requests unlimited elements and waits for demand before publishing")
  func demand() {
    let upstream = ManualUpstream<Int, Never>()
    let recorder = upstream.min().record(initialDemand: .none)
    #expect(upstream.requests == [.unlimited])
    upstream.send(2)
    upstream.send(1)
    upstream.send(completion: .finished)
    #expect(recorder.values.isEmpty)
    recorder.request(.max(1))
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("min and max have Combine's type, Publishers.Comparison")
  func resultTypes() {
    let numbers = [1].publisher
    let minimum: Publishers.Comparison<Publishers.Sequence<[Int], Never>> = numbers.min()
    let maximum: Publishers.Comparison<Publishers.Sequence<[Int], Never>> = numbers.max(by: <)
    #expect(minimum.record().values == [1])
    #expect(maximum.record().values == [1])
  }

  @Test("cancel reaches the upstream, stops delivery and frees the pipeline")
  func cancellation() {
    expectCancellationRules { $0.min() }
    expectCancellationRules { $0.max(by: <) }
  }
}

@Suite("tryMin and tryMax")
struct TryComparisonTests {
  @Test("tryMin and tryMax publish the extremes by the closure")
  func extremes() {
    #expect([3, 1, 2].publisher.eraseToAnyPublisher().tryMin(by: <).record().values == [1])
    #expect([3, 1, 2].publisher.eraseToAnyPublisher().tryMax(by: <).record().values == [3])
  }

  @Test("a thrown error fails the publisher and cancels the upstream")
  func throwingCancelsUpstream() {
    let subject = PassthroughSubject<Int, Never>()
    var cancelled = false
    let recorder =
      subject
      .handleCancelForTest { cancelled = true }
      .tryMax { lhs, rhs in
        if rhs < 0 { throw TestError(rhs) }
        return lhs < rhs
      }
      .record()
    subject.send(1)
    subject.send(-1)
    subject.send(2)
    subject.send(completion: .finished)
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion?.failure as? TestError == TestError(-1))
    #expect(recorder.completionCount == 1)
    #expect(cancelled)
  }

  @Test("a single element is published without calling the closure")
  func singleElement() {
    let recorder = [7].publisher.eraseToAnyPublisher().tryMin { _, _ in throw TestError() }.record()
    #expect(recorder.values == [7])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("an empty upstream finishes without a value")
  func emptyUpstream() {
    let recorder = Empty<Int, Never>().tryMin(by: <).record()
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("passes the upstream's failure on")
  func upstreamFailure() {
    let recorder = Fail<Int, TestError>(error: TestError(2)).tryMax(by: <).record()
    #expect(recorder.receivedCompletion?.failure as? TestError == TestError(2))
  }

  @Test("waits for demand before publishing")
  func waitsForDemand() {
    let recorder = [2, 5].publisher.eraseToAnyPublisher().tryMax(by: <).record(initialDemand: .none)
    #expect(recorder.values.isEmpty)
    recorder.request(.max(1))
    #expect(recorder.values == [5])
  }

  @Test("tryMin and tryMax have Combine's type, Publishers.TryComparison")
  func resultTypes() {
    let minimum: Publishers.TryComparison<Publishers.Sequence<[Int], Never>> = [1].publisher
      .tryMin(by: <)
    let maximum: Publishers.TryComparison<Publishers.Sequence<[Int], Never>> = [1].publisher
      .tryMax(by: <)
    #expect(minimum.record().values == [1])
    #expect(maximum.record().values == [1])
  }

  @Test("cancel reaches the upstream, stops delivery and frees the pipeline")
  func cancellation() {
    expectCancellationRules { $0.tryMin(by: <) }
  }
}
