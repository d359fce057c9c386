import CombineEx
import CombineExTesting
import Foundation
import Testing

@Suite("Marble diagrams: the scheduler's default tick")
struct MarbleTickTests {
  @Test("a test scheduler's marble tick is one second unless set")
  func oneSecondByDefault() {
    #expect(DispatchQueue.test.marbleTick == .seconds(1))
    #expect(RunLoop.test.marbleTick == .seconds(1))
  }

  @Test("a hot publisher made without tick: plays one tick every marbleTick")
  func hotPublisherUsesMarbleTick() {
    let scheduler = DispatchQueue.test
    scheduler.marbleTick = .milliseconds(10)
    let recorder = scheduler.hotPublisher("-a-b-|").record()
    scheduler.advance(by: .milliseconds(10))
    #expect(recorder.values == ["a"])
    scheduler.advance(by: .milliseconds(40))
    #expect(recorder.values == ["a", "b"])
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("expect without tick: advances one marbleTick per tick of the diagram")
  func expectUsesMarbleTick() {
    let scheduler = DispatchQueue.test
    scheduler.marbleTick = .milliseconds(100)
    let start = scheduler.now
    let keystrokes = scheduler.hotPublisher("-a-b-c---|")
    scheduler.expect(
      keystrokes.debounce(for: .milliseconds(200), scheduler: scheduler),
      toProduce: "-------c-|")
    #expect(start.distance(to: scheduler.now) == .milliseconds(1_000))
  }

  @Test("a tick passed to a call wins over the scheduler's")
  func explicitTickWins() {
    let scheduler = DispatchQueue.test
    scheduler.marbleTick = .milliseconds(10)
    let recorder = scheduler.hotPublisher("-a|", tick: .seconds(1)).record()
    scheduler.advance(by: .milliseconds(999))
    #expect(recorder.values == [])
    scheduler.advance(by: .milliseconds(1))
    #expect(recorder.values == ["a"])
  }

  @Test("a wrong diagram against the scheduler's tick is reported")
  func mismatchIsReported() {
    let scheduler = DispatchQueue.test
    scheduler.marbleTick = .milliseconds(10)
    let recorded = issues {
      scheduler.expect(
        scheduler.hotPublisher("-a-|").delay(for: .milliseconds(10), scheduler: scheduler),
        toProduce: "-a-|")
    }
    #expect(recorded.count == 1)
    #expect(recorded.first.map(text(of:))?.contains("actual:   --a") == true)
  }
}
