import CombineExCore
import CombineExTesting
import Foundation
import Testing

/// Cancelling some of many subscribers, in the orders that apps cancel them: the others keep
/// receiving, in subscription order, and each cancelled subscriber is released at once.
@Suite("Subjects: cancelling some of many subscribers")
struct SubjectCancellationTests {
  /// The orders in which the tests cancel subscribers, by index.
  enum CancelOrder: String, CaseIterable, CustomTestStringConvertible {
    case forward, backward, everyOther, scattered
    var testDescription: String { rawValue }

    func indices(of count: Int) -> [Int] {
      switch self {
      case .forward: return Array(0..<count)
      case .backward: return Array((0..<count).reversed())
      case .everyOther: return Array(stride(from: 0, to: count, by: 2))
      case .scattered:
        // A fixed permutation: multiples of a number coprime with the count.
        return (0..<count).map { ($0 * 37) % count }
      }
    }
  }

  @Test(
    "subscribers left after cancels still receive every value, in subscription order",
    arguments: CancelOrder.allCases)
  func survivorsKeepReceivingInOrder(order: CancelOrder) {
    let subject = PassthroughSubject<Int, Never>()
    let count = 100
    let log = LockedBox<[Int]>([])
    var cancellables = (0..<count).map { index in
      subject.sink { value in log.withLock { $0.append(index * 1000 + value) } }
    }
    var cancelled = Set<Int>()
    for (step, index) in order.indices(of: count).enumerated() {
      cancellables[index].cancel()
      cancelled.insert(index)
      // Send now and then while cancelling, so deliveries see the list half thinned out.
      if step % 7 == 0 {
        log.withLock { $0 = [] }
        subject.send(step)
        let expected = (0..<count).filter { !cancelled.contains($0) }.map { $0 * 1000 + step }
        #expect(log.withLock { $0 } == expected)
      }
    }
    log.withLock { $0 = [] }
    subject.send(1)
    let expected = (0..<count).filter { !cancelled.contains($0) }.map { $0 * 1000 + 1 }
    #expect(log.withLock { $0 } == expected)
    cancellables.removeAll()
  }

  @Test("a subscriber cancelled outside a delivery is released at once, whatever its position")
  func cancelledSubscriberIsReleasedAtOnce() {
    let subject = PassthroughSubject<Int, Never>()
    var keep: [AnyCancellable] = (0..<20).map { _ in subject.sink { _ in } }
    for position in [0, 7, 19, 3] {
      weak var weakOwner: TestOwner?
      do {
        let owner = TestOwner()
        weakOwner = owner
        let cancellable = subject.sink { owner.values.append($0) }
        keep.insert(cancellable, at: position)
      }
      #expect(weakOwner != nil)
      keep.remove(at: position).cancel()
      #expect(weakOwner == nil)
    }
    subject.send(1)
    keep.removeAll()
  }

  @Test("subscribing after many cancels, the new subscriber comes after the survivors")
  func subscribingAfterCancelsKeepsOrder() {
    let subject = PassthroughSubject<Int, Never>()
    let log = LockedBox<[String]>([])
    let cancellables = (0..<50).map { index in
      subject.sink { _ in log.withLock { $0.append("old\(index)") } }
    }
    for index in stride(from: 0, to: 50, by: 1) where index != 25 {
      cancellables[index].cancel()
    }
    let late = subject.sink { _ in log.withLock { $0.append("new") } }
    subject.send(0)
    #expect(log.withLock { $0 } == ["old25", "new"])
    withExtendedLifetime((cancellables, late)) {}
  }

  @Test("a CurrentValueSubject's survivors keep their order and demand after cancels")
  func currentValueSubjectSurvivors() {
    let subject = CurrentValueSubject<Int, Never>(0)
    let recorders = (0..<30).map { _ in subject.record() }
    for index in stride(from: 0, to: 30, by: 3) { recorders[index].cancel() }
    subject.send(5)
    for (index, recorder) in recorders.enumerated() {
      #expect(recorder.values == (index % 3 == 0 ? [0] : [0, 5]))
    }
  }

  @Test("stress: 8 threads cancel their own subscribers while others send")
  func stressCancelWhileSending() async {
    let subject = PassthroughSubject<Int, Never>()
    let threads = 8
    let perThread = 200
    let received = LockedBox(0)
    let survivor = subject.sink { _ in received.withLock { $0 += 1 } }
    await concurrentPerform(threads) { thread in
      for index in 0..<perThread {
        let cancellable = subject.sink { _ in }
        subject.send(thread * perThread + index)
        cancellable.cancel()
      }
    }
    #expect(received.withLock { $0 } == threads * perThread)
    survivor.cancel()
  }
}
