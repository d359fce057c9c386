import CombineEx
import Dispatch
import Testing

extension MainQueueTests {
  @Suite("UIScheduler")
  struct UISchedulerTests {
    @Test("onMainThread() is true on the main queue and false on other threads")
    func onMainThread() async {
      let onMain = await MainActor.run { UIScheduler.shared.onMainThread() }
      let onQueue = await withCheckedContinuation { continuation in
        DispatchQueue.main.async {
          continuation.resume(returning: UIScheduler.shared.onMainThread())
        }
      }
      let elsewhere = DispatchQueue.global().sync { UIScheduler.shared.onMainThread() }
      #expect(onMain && onQueue)
      #expect(!elsewhere)
    }

    @Test("work scheduled on the main queue runs at once, before schedule returns")
    func inlineOnMain() async {
      _ = MainQueue.isCurrent
      let log = EventLog()
      await MainActor.run {
        UIScheduler.shared.schedule { log.append("ran") }
        log.append("returned")
      }
      #expect(log.values == ["ran", "returned"])
    }

    @Test("work scheduled on another thread runs later, on the main queue")
    func hopsFromBackground() async {
      let log = EventLog()
      await MainActor.run {
        MainQueue.onBackgroundThread {
          UIScheduler.shared.schedule { log.append("ran on main: \(MainQueue.isCurrent)") }
          log.append("background returned")
        }
        log.append("main continues")
      }
      await MainQueue.drain()
      #expect(log.values == ["background returned", "main continues", "ran on main: true"])
    }

    @Test("work scheduled on the main queue waits behind hops still queued")
    func neverReorders() async {
      let log = EventLog()
      await MainActor.run {
        MainQueue.onBackgroundThread {
          UIScheduler.shared.schedule { log.append("hop from background") }
        }
        UIScheduler.shared.schedule { log.append("scheduled on main") }
        log.append("main continues")
      }
      await MainQueue.drain()
      #expect(log.values == ["main continues", "hop from background", "scheduled on main"])
    }

    @Test("once the queued hops ran, work on the main queue runs at once again")
    func inlineAgainAfterHops() async {
      let log = EventLog()
      await MainActor.run {
        MainQueue.onBackgroundThread { UIScheduler.shared.schedule { log.append("hop") } }
      }
      await MainQueue.drain()
      await MainActor.run {
        UIScheduler.shared.schedule { log.append("inline") }
        log.append("returned")
      }
      #expect(log.values == ["hop", "inline", "returned"])
    }

    @Test("work scheduled from inside a hop runs at once when nothing else waits")
    func inlineInsideHop() async {
      let log = EventLog()
      DispatchQueue.global().sync {
        UIScheduler.shared.schedule {
          UIScheduler.shared.schedule { log.append("nested") }
          log.append("hop continues")
        }
      }
      await MainQueue.drain()
      #expect(log.values == ["nested", "hop continues"])
    }

    @Test("schedule(after:) always goes through the main queue, even from the main queue")
    func afterIsNeverInline() async {
      let log = EventLog()
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        DispatchQueue.main.async {
          let scheduler = UIScheduler.shared
          scheduler.schedule(after: scheduler.now) {
            log.append("ran on main: \(MainQueue.isCurrent)")
            continuation.resume()
          }
          log.append("returned")
        }
      }
      #expect(log.values == ["returned", "ran on main: true"])
    }

    @Test("repeating work runs on the main queue until cancelled")
    func repeatingOnMain() async {
      let log = EventLog()
      let cancellable = CancellableBox()
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        // Scheduled from the main queue, so no tick (which runs there too) can come before
        // the store below.
        DispatchQueue.main.async {
          let scheduler = UIScheduler.shared
          let repeating = scheduler.schedule(
            after: scheduler.now, interval: .milliseconds(1)
          ) {
            log.append("tick on main: \(MainQueue.isCurrent)")
            if log.values.count == 3 {
              cancellable.cancel()
              continuation.resume()
            }
          }
          cancellable.store(repeating)
        }
      }
      await MainQueue.drain()
      #expect(log.values == Array(repeating: "tick on main: true", count: 3))
    }

    @Test("now and minimumTolerance are the main queue's")
    func timeIsTheMainQueues() {
      let before = DispatchQueue.main.now
      let now = UIScheduler.shared.now
      let after = DispatchQueue.main.now
      #expect(before <= now && now <= after)
      #expect(UIScheduler.shared.minimumTolerance == DispatchQueue.main.minimumTolerance)
    }

    @Test("stress: work scheduled from 8 threads runs on the main queue, in each thread's order")
    func stressOrderPerThread() async {
      let seen = LockedBox<[[Int]]>(Array(repeating: [], count: 8))
      let offMain = LockedBox(0)
      await concurrentPerform(8) { thread in
        for index in 0..<200 {
          UIScheduler.shared.schedule {
            if !MainQueue.isCurrent { offMain.withLock { $0 += 1 } }
            seen.withLock { $0[thread].append(index) }
          }
        }
      }
      await MainQueue.drain()
      #expect(offMain.withLock { $0 } == 0)
      #expect(seen.withLock { $0 } == Array(repeating: Array(0..<200), count: 8))
    }
  }
}
