//! The claim cards' strings of chapter 6 in Chinese (see [`super::zh`]).

/// English card string → Chinese, numbers in the same order.
pub const CARDS: &[(&str, &str)] = &[
    (
        "median steps to threshold, untied minus tied",
        "达标步数的中位数，独立投影减共享投影",
    ),
    (
        "rise of the untied head's rank agreement with raw similarity during training",
        "训练中独立投影头与原始相似度的秩一致度的上升",
    ),
    (
        "share of seeds on which a tied head learns the directional successor task",
        "共享投影头学会有方向的后继任务的种子比例",
    ),
    (
        "20 seeds per arm; to a plateau: accuracy rose < 0.01 over the last fifth; not before step 240, at most 720 steps; learning rates tuned on 3 separate seeds; grid [0.003, 0.01, 0.03, 0.1, 0.3]; a tuning budget of 240 steps; one head, d = 12; 12 keys, context 5; threshold 0.8; the match task, where raw similarity is the right geometry; baseline: tied and mimetic heads",
        "每组 20 个种子；训练到平台期：最后五分之一内准确率上升 < 0.01；至少 240 步，至多 720 步；学习率在另外 3 个种子上调出；网格 [0.003, 0.01, 0.03, 0.1, 0.3]；调参预算 240 步；单头，d = 12；12 个 Key，上下文 5；阈值 0.8；匹配任务，原始相似度正是合适的几何；基线：共享投影头与模仿初始化的头",
    ),
    (
        "task: one head, fresh examples every step",
        "任务：单头，每步用新样本",
    ),
    (
        "task: match, one head, fresh examples every step",
        "任务：匹配，单头，每步用新样本",
    ),
    (
        "task: successor (directional), one head, fresh examples every step",
        "任务：后继（有方向），单头，每步用新样本",
    ),
    (
        "task: two layers with residual paths",
        "任务：带残差路径的两层",
    ),
    (
        "task: one head, a fixed set of 256 examples",
        "任务：单头，固定的 256 个样本",
    ),
    (
        "final accuracy, baseline minus untied",
        "最终准确率，基线减独立投影",
    ),
    (
        "20 seeds per arm; to a plateau: accuracy rose < 0.01 over the last fifth; not before step 240, at most 720 steps; learning rates tuned on 3 separate seeds; grid [0.003, 0.01, 0.03, 0.1, 0.3]; a tuning budget of 240 steps; one head, d = 12; 12 keys, context 5; threshold 0.8; the match task with 64 training examples",
        "每组 20 个种子；训练到平台期：最后五分之一内准确率上升 < 0.01；至少 240 步，至多 720 步；学习率在另外 3 个种子上调出；网格 [0.003, 0.01, 0.03, 0.1, 0.3]；调参预算 240 步；单头，d = 12；12 个 Key，上下文 5；阈值 0.8；有 64 个训练样本的匹配任务",
    ),
    ("baseline: the tied head", "基线：共享投影头"),
    (
        "baseline: the mimetic head (untied, initialised at $W_{QK} \\approx I$)",
        "基线：模仿初始化的头（独立投影，初始化为 $W_{QK} \\approx I$）",
    ),
    (
        "share of seeds a tied head reaches the threshold",
        "共享投影头达到阈值的种子比例",
    ),
    (
        "share of seeds an identity head reaches the threshold",
        "恒等形式的头达到阈值的种子比例",
    ),
    (
        "share of seeds an untied head reaches the threshold",
        "独立投影头达到阈值的种子比例",
    ),
    (
        "20 seeds per arm; to a plateau: accuracy rose < 0.01 over the last fifth; not before step 240, at most 720 steps; learning rates tuned on 3 separate seeds; grid [0.003, 0.01, 0.03, 0.1, 0.3]; a tuning budget of 240 steps; one head, d = 12; 12 keys, context 5; threshold 0.8; the successor task",
        "每组 20 个种子；训练到平台期：最后五分之一内准确率上升 < 0.01；至少 240 步，至多 720 步；学习率在另外 3 个种子上调出；网格 [0.003, 0.01, 0.03, 0.1, 0.3]；调参预算 240 步；单头，d = 12；12 个 Key，上下文 5；阈值 0.8；后继任务",
    ),
    (
        "share of untied seeds that reach the threshold, successor task",
        "独立投影达到阈值的种子比例，后继任务",
    ),
    (
        "successor task: final accuracy of the untied head minus its accuracy before training (the null)",
        "后继任务：独立投影头的最终准确率减去它训练前的准确率（零基线）",
    ),
    (
        "match task: final accuracy of the untied head minus its accuracy before training (the null)",
        "匹配任务：独立投影头的最终准确率减去它训练前的准确率（零基线）",
    ),
    (
        "20 seeds per arm; to a plateau: accuracy rose < 0.01 over the last fifth; not before step 240, at most 720 steps; learning rates tuned on 3 separate seeds; grid [0.003, 0.01, 0.03, 0.1, 0.3]; a tuning budget of 240 steps; one head, d = 12; 12 keys, context 5; threshold 0.8; null: the same runs' test accuracy before training",
        "每组 20 个种子；训练到平台期：最后五分之一内准确率上升 < 0.01；至少 240 步，至多 720 步；学习率在另外 3 个种子上调出；网格 [0.003, 0.01, 0.03, 0.1, 0.3]；调参预算 240 步；单头，d = 12；12 个 Key，上下文 5；阈值 0.8；零基线：同一批运行在训练前的测试准确率",
    ),
    (
        "task: match, two layers with residual paths",
        "任务：匹配，带残差路径的两层",
    ),
    (
        "share of untied seeds that reach the threshold, match task",
        "独立投影达到阈值的种子比例，匹配任务",
    ),
    (
        "task: match, one head, a fixed set of 256 examples",
        "任务：匹配，单头，固定的 256 个样本",
    ),
    (
        "median steps to threshold on the match task, untied minus tied",
        "匹配任务上达标步数的中位数，独立投影减共享投影",
    ),
    (
        "20 seeds per arm; to a plateau: accuracy rose < 0.01 over the last fifth; not before step 240, at most 720 steps; learning rates tuned on 3 separate seeds; grid [0.003, 0.01, 0.03, 0.1, 0.3]; a tuning budget of 240 steps; one head, d = 12; 12 keys, context 5; threshold 0.8; baselines on the same task and seeds: the tied head ($W_{QK} = W W^\\top$) and the identity head ($W_{QK} = I$, given the raw similarity)",
        "每组 20 个种子；训练到平台期：最后五分之一内准确率上升 < 0.01；至少 240 步，至多 720 步；学习率在另外 3 个种子上调出；网格 [0.003, 0.01, 0.03, 0.1, 0.3]；调参预算 240 步；单头，d = 12；12 个 Key，上下文 5；阈值 0.8；同一任务与种子上的基线：共享投影头（$W_{QK} = W W^\\top$）与恒等形式的头（$W_{QK} = I$，直接给出原始相似度）",
    ),
    (
        "baseline: the tied head; task: one head, fresh examples every step",
        "基线：共享投影头；任务：单头，每步用新样本",
    ),
    (
        "baseline: the tied head; task: two layers with residual paths",
        "基线：共享投影头；任务：带残差路径的两层",
    ),
    (
        "baseline: the tied head; task: one head, a fixed set of 256 examples",
        "基线：共享投影头；任务：单头，固定的 256 个样本",
    ),
    ("baseline: the identity head", "基线：恒等形式的头"),
    (
        "median steps to threshold on the match task, untied minus identity",
        "匹配任务上达标步数的中位数，独立投影减恒等形式",
    ),
    // the trained arms, as the plateau lines name them
    ("match untied clean", "匹配任务，独立投影，标准设置"),
    ("match tied clean", "匹配任务，共享投影，标准设置"),
    ("match untied two_layer", "匹配任务，独立投影，两层"),
    ("match tied two_layer", "匹配任务，共享投影，两层"),
    ("match untied n256", "匹配任务，独立投影，256 个样本"),
    ("match tied n256", "匹配任务，共享投影，256 个样本"),
    ("match untied n64", "匹配任务，独立投影，64 个样本"),
    ("match tied n64", "匹配任务，共享投影，64 个样本"),
    ("match mimetic n64", "匹配任务，模仿初始化，64 个样本"),
    ("successor untied clean", "后继任务，独立投影，标准设置"),
    ("match identity clean", "匹配任务，恒等形式，标准设置"),
];
