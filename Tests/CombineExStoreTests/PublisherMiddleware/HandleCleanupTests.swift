import CombineExStore
import CombineExTesting
import Foundation
import Testing

@Suite("Publisher.handleCleanup")
struct HandleCleanupTests {
  @Test("values pass through unchanged, and cleanup runs once on finish")
  func finish() {
    let calls = Counter()
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.handleCleanup { calls.increment() }.record()
    subject.send(1)
    subject.send(2)
    #expect(calls.count == 0)
    subject.send(completion: .finished)
    #expect(recorder.values == [1, 2])
    #expect(recorder.receivedCompletion == .finished)
    #expect(calls.count == 1)
  }

  @Test("cleanup runs once on failure, and the failure passes through")
  func failure() {
    let calls = Counter()
    let recorder = Fail<Int, TestError>(error: TestError(3)).handleCleanup { calls.increment() }
      .record()
    #expect(recorder.receivedCompletion == .failure(TestError(3)))
    #expect(calls.count == 1)
  }

  @Test("cleanup runs once on cancel, and the cancel reaches the upstream")
  func cancel() {
    let calls = Counter()
    let upstreamCancels = Counter()
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.handleEvents(receiveCancel: { upstreamCancels.increment() })
      .handleCleanup { calls.increment() }
      .record()
    recorder.cancel()
    recorder.cancel()
    #expect(calls.count == 1)
    #expect(upstreamCancels.count == 1)
  }

  @Test("a cancel after the completion does not clean up again")
  func cancelAfterFinish() {
    let calls = Counter()
    let cancellable = Just(1).handleCleanup { calls.increment() }.sink { _ in }
    cancellable.cancel()
    #expect(calls.count == 1)
  }

  @Test("each subscription cleans up once")
  func oncePerSubscription() {
    let calls = Counter()
    let subject = PassthroughSubject<Int, Never>()
    let publisher = subject.handleCleanup { calls.increment() }
    let first = publisher.record()
    let second = publisher.record()
    first.cancel()
    #expect(calls.count == 1)
    subject.send(completion: .finished)
    #expect(calls.count == 2)
    #expect(second.receivedCompletion == .finished)
  }

  @Test("demand passes through")
  func demand() {
    let recorder = [1, 2, 3].publisher.handleCleanup {}.record(initialDemand: .max(1))
    #expect(recorder.values == [1])
    recorder.request(.max(2))
    #expect(recorder.values == [1, 2, 3])
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("dropping the subscriber's cancellable cleans up and frees the pipeline")
  func droppedCancellableFreed() {
    let calls = Counter()
    let subject = PassthroughSubject<Int, Never>()
    var cancellable: AnyCancellable? = subject.handleCleanup { calls.increment() }.sink { _ in }
    let watched = WeakBox(cancellable)
    cancellable = nil
    #expect(watched.object == nil)
    #expect(calls.count == 1)
  }

  @Test("stress: a cancel racing a completion cleans up exactly once")
  func stressCancelRacingCompletion() async {
    let rounds = isRunningUnderThreadSanitizer ? 200 : 2_000
    let calls = Counter()
    let pairs = (0..<rounds).map { _ -> (PassthroughSubject<Int, Never>, AnyCancellable) in
      let subject = PassthroughSubject<Int, Never>()
      return (subject, subject.handleCleanup { calls.increment() }.sink { _ in })
    }
    let shared = Shared(pairs)
    await concurrentPerform(2) { side in
      for (subject, cancellable) in shared.value {
        if side == 0 { subject.send(completion: .finished) } else { cancellable.cancel() }
      }
    }
    #expect(calls.count == rounds)
  }
}
