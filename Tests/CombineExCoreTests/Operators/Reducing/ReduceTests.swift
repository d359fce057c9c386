import CombineExCore
import CombineExTesting
import Testing

@Suite("reduce")
struct ReduceTests {
  @Test("publishes the accumulated value when the upstream finishes")
  func accumulates() {
    let recorder = [1, 2, 3, 4].publisher.eraseToAnyPublisher().reduce(0, +).record()
    #expect(recorder.values == [10])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("an empty upstream publishes the initial value")
  func emptyUpstream() {
    let recorder = Empty<Int, Never>().reduce(5, +).record()
    #expect(recorder.values == [5])
  }

  @Test("waits for demand before publishing the result")
  func waitsForDemand() {
    let recorder = [1, 2].publisher.eraseToAnyPublisher().reduce(0, +).record(initialDemand: .none)
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion == nil)
    recorder.request(.max(1))
    #expect(recorder.values == [3])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("the upstream's failure is passed on at once, without a value")
  func failure() {
    let subject = PassthroughSubject<Int, TestError>()
    let recorder = subject.reduce(0, +).record()
    subject.send(1)
    subject.send(completion: .failure(TestError(3)))
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion == .failure(TestError(3)))
  }

  @Test("tryReduce fails with the thrown error and cancels the upstream")
  func tryReduceThrows() {
    let subject = PassthroughSubject<Int, Never>()
    var cancelled = false
    let recorder =
      subject
      .handleCancelForTest { cancelled = true }
      .tryReduce(0) { total, next in
        if next < 0 { throw TestError(next) }
        return total + next
      }
      .record()
    subject.send(1)
    subject.send(-1)
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion?.failure as? TestError == TestError(-1))
    #expect(cancelled)
  }

  @Test("cancel before the result discards it")
  func cancelDiscards() {
    let recorder = [1, 2].publisher.eraseToAnyPublisher().reduce(0, +).record(initialDemand: .none)
    recorder.cancel()
    recorder.request(.max(1))
    #expect(recorder.values.isEmpty)
  }
}
