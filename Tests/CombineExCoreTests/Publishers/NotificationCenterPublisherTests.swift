import CombineExCore
import CombineExTesting
import Foundation
import Testing

@Suite("NotificationCenter.Publisher")
struct NotificationCenterPublisherTests {
  let name = Notification.Name("CombineExTestNotification")

  @Test("delivers posted notifications of its name, at once")
  func delivers() {
    let center = NotificationCenter()
    let recorder = center.publisher(for: name).record()
    center.post(name: name, object: nil)
    center.post(name: Notification.Name("Other"), object: nil)
    center.post(name: name, object: nil, userInfo: ["key": 1])
    #expect(recorder.values.map(\.name) == [name, name])
    #expect(recorder.values.last?.userInfo?["key"] as? Int == 1)
  }

  @Test("filters by object when one is given")
  func filtersObject() {
    let center = NotificationCenter()
    let sender = NSObject()
    let recorder = center.publisher(for: name, object: sender).record()
    center.post(name: name, object: NSObject())
    center.post(name: name, object: sender)
    #expect(recorder.values.count == 1)
    #expect(recorder.values.first?.object as? NSObject === sender)
  }

  @Test("notifications without demand are dropped")
  func demand() {
    let center = NotificationCenter()
    let recorder = center.publisher(for: name).record(initialDemand: .max(1))
    center.post(name: name, object: nil)
    center.post(name: name, object: nil)
    #expect(recorder.values.count == 1)
    recorder.request(.max(1))
    center.post(name: name, object: nil)
    #expect(recorder.values.count == 2)
  }

  @Test("cancel removes the observer: later notifications are not delivered")
  func cancel() {
    let center = NotificationCenter()
    let recorder = center.publisher(for: name).record()
    recorder.cancel()
    center.post(name: name, object: nil)
    #expect(recorder.values.isEmpty)
  }

  @Test("cancel releases the subscriber")
  func cancelReleases() {
    let center = NotificationCenter()
    weak var weakOwner: TestOwner?
    var cancellable: AnyCancellable?
    do {
      let owner = TestOwner()
      weakOwner = owner
      cancellable = center.publisher(for: name).sink { _ in owner.values.append(1) }
    }
    center.post(name: name, object: nil)
    #expect(weakOwner?.values == [1])
    cancellable?.cancel()
    #expect(weakOwner == nil)
  }

  @Test("never completes")
  func neverCompletes() {
    let center = NotificationCenter()
    let recorder = center.publisher(for: name).record()
    center.post(name: name, object: nil)
    #expect(recorder.receivedCompletion == nil)
    recorder.cancel()
  }

  @Test("publishers are equal when center, name and object are the same")
  func equality() {
    let center = NotificationCenter()
    let object = NSObject()
    #expect(center.publisher(for: name) == NotificationCenter.Publisher(center: center, name: name))
    #expect(center.publisher(for: name, object: object) != center.publisher(for: name))
    #expect(center.publisher(for: name) != NotificationCenter().publisher(for: name))
  }

  @Test("stress: notifications posted from many threads reach the subscriber one at a time")
  func stressSerialDelivery() async {
    let center = NotificationCenter()
    let checker = SerialDeliveryChecker()
    let name = self.name
    let cancellable = center.publisher(for: name).sink { note in
      checker.receive(note.userInfo?["value"] as? Int ?? -1)
    }
    await concurrentPerform(8) { thread in
      for index in 0..<200 {
        center.post(name: name, object: nil, userInfo: ["value": thread * 1000 + index])
      }
    }
    #expect(checker.values.count == 1600)
    #expect(checker.overlaps == 0)
    cancellable.cancel()
  }
}
