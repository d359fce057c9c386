import CombineExCore
import CombineExTesting
import Foundation
import Testing

@Suite("AsyncThrowingPublisher (publisher.values)")
struct AsyncThrowingPublisherTests {
  @Test("iterates every value, then ends when the publisher finishes")
  func iteratesThenEnds() async throws {
    var received: [Int] = []
    for try await value in [1, 2, 3].publisher.setFailureType(to: TestError.self).values {
      received.append(value)
    }
    #expect(received == [1, 2, 3])
  }

  @Test("the publisher's failure is thrown after the values before it")
  func failureIsThrown() async {
    let publisher = [1, 2].publisher.setFailureType(to: TestError.self)
      .append(Fail(error: TestError(7)))
    var received: [Int] = []
    await #expect(throws: TestError(7)) {
      for try await value in publisher.values {
        received.append(value)
      }
    }
    #expect(received == [1, 2])
  }

  @Test("after the failure is thrown, next() returns nil")
  func nilAfterFailure() async throws {
    var iterator = Fail<Int, TestError>(error: TestError(1)).values.makeAsyncIterator()
    await #expect(throws: TestError(1)) { _ = try await iterator.next() }
    #expect(try await iterator.next() == nil)
  }

  @Test("a failure that arrives while nobody waits is thrown by the next call")
  func failureKeptForNextCall() async {
    let subject = PassthroughSubject<Int, TestError>()
    var iterator = subject.values.makeAsyncIterator()
    subject.send(completion: .failure(TestError(3)))
    await #expect(throws: TestError(3)) { _ = try await iterator.next() }
  }

  @Test("each next() requests exactly one value")
  func demandsOneValueAtATime() async throws {
    let requests = LockedBox<[Subscribers.Demand]>([])
    let publisher = [1, 2].publisher.setFailureType(to: TestError.self)
      .handleEvents(receiveRequest: { demand in requests.withLock { $0.append(demand) } })
    var iterator = publisher.values.makeAsyncIterator()
    #expect(requests.withLock { $0 } == [])
    #expect(try await iterator.next() == 1)
    #expect(try await iterator.next() == 2)
    #expect(requests.withLock { $0 } == [.max(1), .max(1)])
  }

  @Test("cancelling the task awaiting next() cancels the upstream and next() returns nil")
  func taskCancellationCancelsUpstream() async throws {
    let requested = Signal()
    let cancelled = Signal()
    let publisher = PassthroughSubject<Int, TestError>().handleEvents(
      receiveCancel: { cancelled.fire() }, receiveRequest: { _ in requested.fire() })
    let task = Task {
      var iterator = publisher.values.makeAsyncIterator()
      return try await iterator.next()
    }
    await requested.wait()
    task.cancel()
    await cancelled.wait()
    #expect(try await task.value == nil)
  }

  @Test("breaking out of a for try await loop cancels the upstream")
  func breakCancels() async throws {
    let cancelled = Signal()
    let publisher = (1...100).publisher.setFailureType(to: TestError.self)
      .handleEvents(receiveCancel: { cancelled.fire() })
    for try await value in publisher.values where value == 3 { break }
    #expect(cancelled.count == 1)
  }

  @Test("values and a failure delivered from another thread arrive in order")
  func valuesFromAnotherThread() async {
    let queue = DispatchQueue(label: "AsyncThrowingPublisherTests.values")
    let publisher = (0..<300).publisher.setFailureType(to: TestError.self)
      .append(Fail(error: TestError(2)))
      .receive(on: queue)
    var received: [Int] = []
    await #expect(throws: TestError(2)) {
      for try await value in publisher.values { received.append(value) }
    }
    #expect(received == Array(0..<300))
  }

  @Test("a failure goes to the first waiting call; the other waiting calls return nil")
  func failureGoesToFirstWaitingCall() async throws {
    let requested = Signal()
    let subject = PassthroughSubject<Int, TestError>()
    let shared = SharedIterator(
      subject.handleEvents(receiveRequest: { _ in requested.fire() }).values.makeAsyncIterator())
    let first = Task { try await shared.next() }
    await requested.wait(count: 1)
    let second = Task { try await shared.next() }
    await requested.wait(count: 2)
    subject.send(completion: .failure(TestError(3)))
    await #expect(throws: TestError(3)) { try await first.value }
    #expect(try await second.value == nil)
    #expect(try await shared.next() == nil)
  }
}
